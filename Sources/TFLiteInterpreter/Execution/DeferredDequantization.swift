import Foundation
import TFLiteKernels
import TFLiteSchema

/// The float32 output of a DEQUANTIZE of constant float16 weights whose only readers are layers
/// that pack their weights (the weights input of CONV_2D and FULLY_CONNECTED): MediaPipe's
/// models, face_detection_full_range among them, store every weight so. Instead of
/// folding the DEQUANTIZE at load into float32 constants that the model keeps beside their
/// packed copies (twice the float16 bytes, written and faulted in once more), each layer's
/// prepare converts the float16 values into the subgraph's weight scratch and packs from there
/// (``NodeContext/preparing(with:_:readsRawWeights:)``), as it does with the weights the file
/// keeps (``DeferredWeights``). Float16 to float32 is exact: the values are those the folded
/// DEQUANTIZE would have written.
///
/// The values have a home in the model's memory (``home``), address space only until a layer
/// runs on the raw weights (the reference kernels) or the interpreter hands the tensor out:
/// then ``materialize()`` converts them there, once for all of the model's interpreters.
///
/// Thread-safe: interpreters of one model prepare on any thread.
final class DeferredDequantization: @unchecked Sendable {
    /// The float16 values: the model's constant, in its memory.
    let source: UnsafeRawPointer
    /// Number of values.
    let count: Int
    /// Where the float32 values are materialized (in ``homes``): zeros until then.
    let home: UnsafeMutableRawPointer
    /// Scratch bytes that hold the largest deferred dequantization of the subgraph, so that the
    /// weight scratch is sized once per prepare rather than grown layer by layer.
    let scratchByteCount: Int
    /// The memory of the subgraph's homes, alive as long as a tensor refers to one.
    private let homes: UntouchedMemory
    private let lock = NSLock()
    private var converted = false

    private init(source: UnsafeRawPointer, count: Int, home: UnsafeMutableRawPointer, scratchByteCount: Int,
                 homes: UntouchedMemory) {
        self.source = source
        self.count = count
        self.home = home
        self.scratchByteCount = scratchByteCount
        self.homes = homes
    }

    /// Bytes of the float32 values.
    var byteCount: Int { count * MemoryLayout<Float>.size }

    /// Whether the values are in their home (``materialize()`` ran).
    var isMaterialized: Bool { lock.lock(); defer { lock.unlock() }; return converted }

    /// Writes the float32 values to `destination` (``byteCount`` bytes, 4-byte aligned).
    func convert(into destination: UnsafeMutableRawPointer) {
        Float16Conversion.convertToFloat(source.assumingMemoryBound(to: UInt16.self),
                                         destination.assumingMemoryBound(to: Float.self), count: count)
    }

    /// Converts the values into their home, the first time only.
    func materialize() {
        lock.lock(); defer { lock.unlock() }
        guard !converted else { return }
        convert(into: home)
        converted = true
    }

    /// One deferred dequantization per `(source, count)` of one subgraph (float16 data, value
    /// counts), their homes carved from one block of untouched memory.
    /// - Throws: ``InterpreterError/resourceLimitExceeded(_:)`` when the system refuses the block.
    static func make(_ sources: [(source: UnsafeRawPointer, count: Int)]) throws -> [DeferredDequantization] {
        let alignment = AlignedBuffer.alignment
        let sizes = sources.map { ($0.count * MemoryLayout<Float>.size + alignment - 1) / alignment * alignment }
        guard !sizes.isEmpty else { return [] }
        let homes = try UntouchedMemory(byteCount: sizes.reduce(0, +))
        let largest = sizes.max()!
        var offset = 0
        return zip(sources, sizes).map { source, size in
            defer { offset += size }
            return DeferredDequantization(source: source.source, count: source.count, home: homes.start + offset,
                                          scratchByteCount: largest, homes: homes)
        }
    }
}
