import Foundation
import TFLiteInterpreter
import TFLiteSchema

/// Decides whether a downloaded, checksum-verified file is a model this engine can use, before
/// it is installed. Throwing rejects the file; the previous version stays current.
public struct ModelValidator: Sendable {
    /// Checks the file at the given path; throws when it is not usable.
    public let validate: @Sendable (String) throws -> Void

    /// A validator running `validate`.
    public init(_ validate: @escaping @Sendable (String) throws -> Void) {
        self.validate = validate
    }

    /// Checks the FlatBuffers file identifier `TFL3` at byte offset 4 that every `.tflite`
    /// file carries.
    public static let fileIdentifier = ModelValidator { path in
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ModelHostingError.invalidModel("cannot open \(path)")
        }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 8)) ?? Data()
        guard head.count == 8, Array(head[head.startIndex + 4 ..< head.startIndex + 8]) == Array("TFL3".utf8) else {
            throw ModelHostingError.invalidModel("no TFLite file identifier (TFL3) at offset 4")
        }
    }

    /// Parses the file with the engine's FlatBuffers loader, which bounds-checks every offset,
    /// index and buffer and validates the graph (``TFLiteSchema/TFLiteModelFile``). It does not
    /// check that the engine implements every operator. Default ``TFLiteSchema/ResourceLimits``.
    public static let modelFile = Self.modelFile(limits: .default)

    /// ``modelFile`` under `limits` (archive entry and total sizes, label files).
    public static func modelFile(limits: ResourceLimits) -> ModelValidator {
        ModelValidator { path in
            do {
                _ = try TFLiteModelFile(contentsOf: path, limits: limits)
            } catch {
                throw ModelHostingError.invalidModel(String(describing: error))
            }
        }
    }

    /// Loads the file with the engine's own loader (every offset, index and buffer checked,
    /// every operator supported) and allocates its tensors: what an app would do with it next.
    /// Default ``TFLiteSchema/ResourceLimits``.
    public static let interpreter = Self.interpreter(limits: .default)

    /// ``interpreter`` under `limits`: a model that would exceed them (a tensor, the memory it
    /// makes the interpreter allocate, its archive or labels) is rejected with the limit named.
    public static func interpreter(limits: ResourceLimits) -> ModelValidator {
        ModelValidator { path in
            do {
                let interpreter = try Interpreter(modelPath: path, options: Interpreter.Options(threadCount: 1, resourceLimits: limits))
                try interpreter.allocateTensors()
            } catch {
                throw ModelHostingError.invalidModel(String(describing: error))
            }
        }
    }

    /// The validator a ``ModelManager`` uses unless configured otherwise: ``fileIdentifier``
    /// (cheap, clear message for files that are not models at all), then ``interpreter``.
    public static let standard = Self.standard(limits: .default)

    /// ``standard`` under `limits` (``interpreter(limits:)``).
    public static func standard(limits: ResourceLimits) -> ModelValidator {
        let loads = Self.interpreter(limits: limits)
        return ModelValidator { path in
            try fileIdentifier.validate(path)
            try loads.validate(path)
        }
    }
}
