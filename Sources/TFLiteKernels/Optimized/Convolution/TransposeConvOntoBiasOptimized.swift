/// MediaPipe's `Convolution2DTransposeBias` arithmetic (``TransposeConvReference/floatOntoBias(_:input:filter:bias:output:)``)
/// computed output by output instead of scattered: each output starts at its channel's bias and
/// adds its products in the order the reference's scatter reaches it — input rows ascending, then
/// input columns ascending, then input channels ascending — each product and sum rounded to
/// float, so results are bit for bit the reference's.
///
/// The outputs of one row whose columns share a phase (`(column + padLeft) mod strideWidth`) take
/// their products from the same filter columns at consecutive input columns: eight of them run as
/// the lanes of one vector, over the input laid out in channel planes (`[batch][row][channel][column]`,
/// ``makePlanes(_:input:planes:)``). Outputs whose taps leave the input run one at a time. Output
/// rows are independent: ``run(_:planes:filter:bias:output:rows:)`` takes any range of them.
public enum TransposeConvOntoBiasOptimized {
    /// Floats of `planes` scratch the input takes in channel planes.
    public static func planeCount(_ g: ConvolutionGeometry) -> Int {
        g.batches * g.inputHeight * g.inputDepth * g.inputWidth
    }

    /// Lays `input` (NHWC) out in channel planes (``planeCount(_:)`` floats). Complexity: O(input).
    public static func makePlanes(_ g: ConvolutionGeometry, input: UnsafePointer<Float>, planes: UnsafeMutablePointer<Float>) {
        let (height, width, depth) = (g.inputHeight, g.inputWidth, g.inputDepth)
        for row in 0..<(g.batches * height) {
            let source = input + row * width * depth, destination = planes + row * depth * width
            for x in 0..<width {
                for c in 0..<depth { destination[c * width + x] = source[x * depth + c] }
            }
        }
    }

    /// Computes output rows `rows` (of `batches × outputHeight`, batch-major) onto the bias from
    /// the input in `planes` (``makePlanes(_:input:planes:)``).
    /// - Precondition: `g` as for the reference (filter `[outputDepth, fh, fw, inputDepth]`, no
    ///   dilation, non-negative padding); `rows` within `0..<batches × outputHeight`.
    ///   Complexity: O(output elements of `rows` × products per output).
    public static func run(_ g: ConvolutionGeometry, planes: UnsafePointer<Float>, filter: UnsafePointer<Float>,
                           bias: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        KernelPrecondition.check(g.padTop >= 0 && g.padLeft >= 0 && g.strideHeight > 0 && g.strideWidth > 0
                                 && rows.lowerBound >= 0 && rows.upperBound <= g.batches * g.outputHeight,
                                 "Convolution2DTransposeBias geometry \(g), rows \(rows)")
        let batchPlanes = g.inputHeight * g.inputDepth * g.inputWidth
        for row in rows {
            let (b, outY) = row.quotientAndRemainder(dividingBy: g.outputHeight)
            let rowPosition = outY + g.padTop
            let outputRow = output + row * g.outputWidth * g.outputDepth
            guard let inputRows = taps(of: rowPosition, stride: g.strideHeight, filter: g.filterHeight, input: g.inputHeight) else {
                for column in 0..<g.outputWidth { (outputRow + column * g.outputDepth).update(from: bias, count: g.outputDepth) }
                continue
            }
            for phase in 0..<g.strideWidth {
                runPhase(phase, g, rowPosition: rowPosition, rows: inputRows, planes: planes + b * batchPlanes, filter: filter,
                         bias: bias, outputRow: outputRow)
            }
        }
    }

    /// The input positions `i` (ascending) whose filter tap `t = position − i · stride` is in
    /// `0..<filter`, as the range of `i` within `0..<input`.
    @inline(__always)
    private static func taps(of position: Int, stride: Int, filter: Int, input: Int) -> ClosedRange<Int>? {
        let last = min(input - 1, position / stride)
        let first = max(0, floorDivide(position - filter, stride) + 1)
        return first <= last ? first...last : nil
    }

    @inline(__always)
    private static func floorDivide(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

    /// The outputs of one row whose columns `c` have `(c + padLeft) mod strideWidth == phase`:
    /// column `phase + strideWidth · k − padLeft` takes filter columns `phase + strideWidth · j`
    /// at input columns `k − j`. `rows`: the input rows the output row takes (ascending), its
    /// filter rows `rowPosition − row · strideHeight`.
    private static func runPhase(_ phase: Int, _ g: ConvolutionGeometry, rowPosition: Int, rows: ClosedRange<Int>,
                                 planes: UnsafePointer<Float>, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>,
                                 outputRow: UnsafeMutablePointer<Float>) {
        let (stride, depth, width) = (g.strideWidth, g.inputDepth, g.inputWidth)
        let columnTaps = phase < g.filterWidth ? (g.filterWidth - 1 - phase) / stride + 1 : 0
        var k = floorDivide(g.padLeft - phase + stride - 1, stride)
        let lastK = floorDivide(g.outputWidth - 1 + g.padLeft - phase, stride)
        while k <= lastK {
            if columnTaps > 0, k + 7 <= lastK, k - (columnTaps - 1) >= 0, k + 7 < width {
                // Eight outputs, every tap inside the input.
                for oc in 0..<g.outputDepth {
                    var sum = SIMD8<Float>(repeating: bias[oc])
                    for inY in rows {
                        let filterRow = filter + (oc * g.filterHeight + rowPosition - inY * g.strideHeight) * g.filterWidth * depth
                        for j in Swift.stride(from: columnTaps - 1, through: 0, by: -1) {
                            let weights = filterRow + (phase + stride * j) * depth
                            var values = planes + inY * depth * width + (k - j)
                            for c in 0..<depth {
                                let x = UnsafeRawPointer(values).loadUnaligned(as: SIMD8<Float>.self)
                                sum = sum + x * SIMD8(repeating: weights[c])
                                values += width
                            }
                        }
                    }
                    for lane in 0..<8 { outputRow[(phase + stride * (k + lane) - g.padLeft) * g.outputDepth + oc] = sum[lane] }
                }
                k += 8
            } else {
                let column = phase + stride * k - g.padLeft
                let inputColumns = taps(of: column + g.padLeft, stride: stride, filter: g.filterWidth, input: width)
                for oc in 0..<g.outputDepth {
                    var sum = bias[oc]
                    if let inputColumns {
                        for inY in rows {
                            let filterRow = filter + (oc * g.filterHeight + rowPosition - inY * g.strideHeight) * g.filterWidth * depth
                            for inX in inputColumns {
                                let weights = filterRow + (column + g.padLeft - inX * stride) * depth
                                var values = planes + inY * depth * width + inX
                                for c in 0..<depth {
                                    sum = sum + values.pointee * weights[c]
                                    values += width
                                }
                            }
                        }
                    }
                    outputRow[column * g.outputDepth + oc] = sum
                }
                k += 1
            }
        }
    }
}
