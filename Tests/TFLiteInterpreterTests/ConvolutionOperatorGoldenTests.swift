import Foundation
import XCTest
import TestSupport
@testable import TFLiteInterpreter
import TFLiteSchema

/// Runs every one-operator golden case of the convolution family
/// (`Tests/Fixtures/ops/convolution`) through the family's operator kernels directly
/// (prepare + invoke on hand-built tensors), independent of the full interpreter:
/// float within 2e-3·max(1, max|ref|), quantized bit-exact.
final class ConvolutionOperatorGoldenTests: XCTestCase {
    /// The committed fixtures, or `CONV_GOLDEN_DIR` (e.g. cuts of real models made by
    /// `Scripts/goldens/cuts_convolution.py`).
    private var fixtures: URL {
        if let dir = ProcessInfo.processInfo.environment["CONV_GOLDEN_DIR"] { return URL(fileURLWithPath: dir) }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/ops/convolution")
    }

    /// The pool kernels split work over: `CONV_GOLDEN_THREADS` threads (default 2, so the
    /// split paths run).
    private let pool = ThreadPool(threadCount: ProcessInfo.processInfo.environment["CONV_GOLDEN_THREADS"].flatMap(Int.init) ?? 2)

    /// The cases whose DEPTHWISE_CONV_2D was planned on an expanded input (a depth multiplier).
    private var expandedCases: Set<String> = []

    private func runCase(_ dir: URL) throws -> (ok: Bool, message: String) {
        let golden = try GoldenCase(directory: dir, name: dir.lastPathComponent)
        let model = try TFLiteModelFile(contentsOf: dir.appendingPathComponent("model.tflite").path)
        let sub = model.subgraphs[0]
        var allocations: [UnsafeMutableRawPointer] = []
        defer { allocations.forEach { $0.deallocate() } }
        let tensors: [RuntimeTensor] = try sub.tensors.enumerated().map { i, d in
            let constant = model.bufferByteCount(d.buffer) > 0
            let t = RuntimeTensor(index: i, name: d.name, type: d.type, shape: d.shape, quantization: d.quantization,
                                  sparsity: d.sparsity, isConstant: constant)
            if constant {
                let n = model.bufferByteCount(d.buffer)
                let p = UnsafeMutableRawPointer.allocate(byteCount: n, alignment: 16)
                allocations.append(p)
                try model.withBufferBytes(d.buffer) { p.copyMemory(from: $0.baseAddress!, byteCount: n) }
                t.data = p
            }
            return t
        }
        let inputArrays = try golden.arrays("input")
        guard inputArrays.count == sub.inputs.count else {
            return (false, "\(inputArrays.count) input files for \(sub.inputs.count) inputs")
        }
        for (k, index) in sub.inputs.enumerated() {
            let payload = [UInt8](inputArrays[k].data)
            let p = UnsafeMutableRawPointer.allocate(byteCount: max(1, payload.count), alignment: 16)
            allocations.append(p)
            payload.withUnsafeBytes { p.copyMemory(from: $0.baseAddress!, byteCount: payload.count) }
            tensors[index].data = p
        }
        let opDesc = sub.operators[0]
        let code = model.operatorCodes[opDesc.opcodeIndex]
        guard let factory = OperatorRegistry.factory(for: code) else { return (false, "no kernel for \(code.displayName)") }
        let node = NodeContext(code: code, inputs: opDesc.inputs.map { $0 < 0 ? nil : tensors[$0] },
                               outputs: opDesc.outputs.map { tensors[$0] }, options: opDesc.builtinOptions,
                               customOptions: opDesc.customOptions, threads: pool)
        let kernel = factory()
        try kernel.prepare(node)
        if let depthwise = kernel as? DepthwiseConv2DOperator, case .depthwise(.multiplied) = depthwise.plan {
            expandedCases.insert(dir.lastPathComponent)
        }
        for t in node.outputs {
            let p = UnsafeMutableRawPointer.allocate(byteCount: max(1, t.byteCount), alignment: 16)
            allocations.append(p)
            t.data = p
        }
        try kernel.invoke(node)
        if let threads = ProcessInfo.processInfo.environment["CONV_GOLDEN_TIMING"].flatMap(Int.init) {
            // Timing mode: median of 5 invokes on a pool of `threads`, in CPU time of the
            // calling thread (robust on a shared machine; meaningful for threads == 1).
            let timed = NodeContext(code: code, inputs: node.inputs, outputs: node.outputs, options: node.options,
                                    customOptions: node.customOptions, threads: ThreadPool(threadCount: threads))
            var times: [Double] = []
            for _ in 0..<5 {
                var t0 = timespec(), t1 = timespec()
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0)
                try kernel.invoke(timed)
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1)
                times.append(Double(t1.tv_sec - t0.tv_sec) * 1e3 + Double(t1.tv_nsec - t0.tv_nsec) / 1e6)
            }
            print("TIMING \(dir.lastPathComponent) \(times.sorted()[2])")
        }
        let out = node.outputs[0]
        guard let expectedArray = try golden.arrays("output").first else { return (false, "no output_0.npy") }
        let expected = [UInt8](expectedArray.data)
        guard expected.count == out.byteCount else {
            return (false, "output has \(out.byteCount) bytes (shape \(out.shape)), expected \(expected.count)")
        }
        if out.type == .float32 {
            let ours = UnsafeBufferPointer(start: out.pointer(as: Float.self), count: out.elementCount).map(Double.init)
            let ref = expected.withUnsafeBytes { $0.bindMemory(to: Float.self).map(Double.init) }
            let problem = TolerantCompare.floatMismatch(ours, ref)
            return (problem == nil, problem ?? "within \(TolerantCompare.floatAllowance(ref))")
        }
        let ours = UnsafeRawBufferPointer(start: out.data, count: out.byteCount)
        var diffs = 0, worst = 0, first = -1
        for i in 0..<out.byteCount where ours[i] != expected[i] {
            diffs += 1
            if first < 0 { first = i }
            let a = out.type == .int8 ? Int(Int8(bitPattern: ours[i])) : Int(ours[i])
            let b = out.type == .int8 ? Int(Int8(bitPattern: expected[i])) : Int(expected[i])
            worst = max(worst, abs(a - b))
        }
        let at = first < 0 ? "" : ", first at \(first): \(ours[first]) vs \(expected[first])"
        return (diffs == 0, "\(diffs) of \(out.byteCount) differ, worst by \(worst)\(at)")
    }

    func testEveryConvolutionFamilyCaseMatchesTheReference() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).sorted()
        XCTAssertFalse(names.isEmpty, "no fixtures in \(fixtures.path)")
        var failures: [String] = []
        for name in names {
            do {
                let (ok, message) = try runCase(fixtures.appendingPathComponent(name))
                if !ok { failures.append("\(name): \(message)") }
                if ProcessInfo.processInfo.environment["CONV_GOLDEN_VERBOSE"] != nil { print("\(name): \(message)") }
            } catch {
                failures.append("\(name): threw \(error)")
            }
        }
        XCTAssert(failures.isEmpty, "\(failures.count) of \(names.count) cases fail:\n" + failures.joined(separator: "\n"))
        // The float and 8-bit layers with a depth multiplier ran on the multiplier-1 kernels
        // (hybrid layers keep the reference kernels).
        guard ProcessInfo.processInfo.environment["CONV_GOLDEN_DIR"] == nil else { return }
        let multiplied = names.filter { $0.hasPrefix("dw_") && !$0.contains("hybrid") && ($0.contains("_m2_") || $0.contains("_m3_")) }
        XCTAssertEqual(multiplied.count, 6, "the fixtures' depthwise layers with a multiplier: \(multiplied)")
        XCTAssertEqual(expandedCases, Set(multiplied), "cases planned on an expanded input")
    }
}
