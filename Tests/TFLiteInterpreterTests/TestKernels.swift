import Foundation
@testable import TFLiteInterpreter
import TFLiteSchema

/// Minimal float32 kernels so the interpreter's own tests do not depend on the operator
/// families. Each checks what it relies on and throws otherwise.
enum TestKernels {
    /// Resolves ADD, MUL, DEQUANTIZE (float16) and FULLY_CONNECTED to the kernels below.
    static func resolver(_ code: OperatorCode) -> OperatorFactory? {
        switch code.builtin {
        case .add: return { BinaryKernel(+) }
        case .mul: return { BinaryKernel(*) }
        case .dequantize: return { DequantizeFloat16Kernel() }
        case .fullyConnected: return { FullyConnectedKernel() }
        default: return nil
        }
    }

    /// A resolver whose every kernel keeps the model's declared output shapes and computes
    /// nothing: plans memory exactly as the model file describes it.
    static func declaredShapes(_ code: OperatorCode) -> OperatorFactory? { { DeclaredShapeKernel() } }

    struct Failure: Error, CustomStringConvertible { let description: String }
}

/// Elementwise float32 `a op b` where one operand's shape is a suffix of the other's.
final class BinaryKernel: OperatorKernel {
    let operation: @Sendable (Float, Float) -> Float
    var onInvoke: (() -> Void)?
    init(_ operation: @escaping @Sendable (Float, Float) -> Float) { self.operation = operation }

    func prepare(_ node: NodeContext) throws {
        let a = try node.input(0), b = try node.input(1)
        guard a.type == .float32, b.type == .float32 else { throw TestKernels.Failure(description: "float32 only") }
        let longer = a.shape.count >= b.shape.count ? a : b, shorter = longer === a ? b : a
        guard Array(longer.shape.suffix(shorter.shape.count)) == shorter.shape else {
            throw TestKernels.Failure(description: "cannot broadcast \(a.shape) with \(b.shape)")
        }
        let output = try node.output(0)
        output.shape = longer.shape
        output.type = .float32
    }

    func invoke(_ node: NodeContext) throws {
        onInvoke?()
        let a = try node.input(0), b = try node.input(1), output = try node.output(0)
        let pa = a.pointer(as: Float.self), pb = b.pointer(as: Float.self), po = output.pointer(as: Float.self)
        let na = a.elementCount, nb = b.elementCount
        for i in 0..<output.elementCount { po[i] = operation(pa[i % na], pb[i % nb]) }
    }
}

/// DEQUANTIZE of float16 data to float32.
final class DequantizeFloat16Kernel: OperatorKernel {
    func prepare(_ node: NodeContext) throws {
        let input = try node.input(0)
        guard input.type == .float16 else { throw TestKernels.Failure(description: "float16 only") }
        let output = try node.output(0)
        output.shape = input.shape
        output.type = .float32
    }

    func invoke(_ node: NodeContext) throws {
        let input = try node.input(0), output = try node.output(0)
        let bits = input.pointer(as: UInt16.self), values = output.pointer(as: Float.self)
        for i in 0..<input.elementCount { values[i] = Float(float16Bits: bits[i]) }
    }
}

/// FULLY_CONNECTED: input [batch, k], weights [n, k], optional bias [n]; no activation.
final class FullyConnectedKernel: OperatorKernel {
    func prepare(_ node: NodeContext) throws {
        let input = try node.input(0), weights = try node.input(1)
        guard weights.shape.count == 2, input.elementCount % weights.shape[1] == 0 else {
            throw TestKernels.Failure(description: "bad fully connected shapes")
        }
        let output = try node.output(0)
        output.shape = [input.elementCount / weights.shape[1], weights.shape[0]]
        output.type = .float32
    }

    func invoke(_ node: NodeContext) throws {
        let input = try node.input(0), weights = try node.input(1), output = try node.output(0)
        let n = weights.shape[0], k = weights.shape[1], batches = input.elementCount / k
        let x = input.pointer(as: Float.self), w = weights.pointer(as: Float.self), y = output.pointer(as: Float.self)
        let bias = node.inputs.count > 2 ? node.inputs[2]?.pointer(as: Float.self) : nil
        for b in 0..<batches {
            for j in 0..<n {
                var sum = bias?[j] ?? 0
                for i in 0..<k { sum += x[b * k + i] * w[j * k + i] }
                y[b * n + j] = sum
            }
        }
    }
}

/// Keeps declared shapes; computes nothing (for memory-planning tests on real models).
final class DeclaredShapeKernel: OperatorKernel {
    func prepare(_ node: NodeContext) throws {}
    func invoke(_ node: NodeContext) throws {}
}
