import Foundation
import TFLiteInterpreter
import TFLiteKernels
import TFLiteSchema
import TestSupport
import XCTest

/// The catalogue of hostile inputs from issue #17, as regression tests: each model once
/// crashed, exhausted memory or ran though invalid. Each now gives a typed error that names
/// the problem, or runs. Models: `Tests/Fixtures/hostile/` (Scripts/goldens/hostile_models.py).
final class HostileInputTests: XCTestCase {
    private func fixture(_ name: String) throws -> String { try TestPaths.fixture("hostile/\(name).tflite") }

    /// Loads, allocates and invokes `name`; returns the error's message.
    private func failure(_ name: String, limits: ResourceLimits = .default,
                         file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            let interpreter = try Interpreter(modelPath: try fixture(name),
                                              options: .init(threadCount: 1, resourceLimits: limits))
            try interpreter.allocateTensors()
            try interpreter.invoke()
            XCTFail("\(name) was accepted", file: file, line: line)
            return ""
        } catch let error as InterpreterError {
            return error.description
        } catch {
            XCTFail("\(name): untyped error \(error)", file: file, line: line)
            return ""
        }
    }

    // MARK: Quantization parameters (crashed in QuantizedMultiplier.init)

    func testOverflowingScaleRatioIsRejectedAtPrepare() {
        let message = failure("relu_scale_ratio_overflow")
        XCTAssertTrue(message.contains("RELU") && message.contains("not a finite number"), message)
    }

    func testNaNSoftmaxBetaIsRejected() {
        let message = failure("softmax_nan_beta")
        XCTAssertTrue(message.contains("SOFTMAX") && message.contains("beta") && message.contains("nan"), message)
    }

    func testNaNLeakyReluAlphaIsRejected() {
        let message = failure("leaky_relu_nan_alpha")
        XCTAssertTrue(message.contains("LEAKY_RELU") && message.contains("alpha"), message)
    }

    func testOverflowingScaleProductsAreRejected() {
        let mul = failure("mul_scale_product_overflow")
        XCTAssertTrue(mul.contains("MUL") && mul.contains("output multiplier"), mul)
        let conv = failure("conv_scale_product_overflow")
        XCTAssertTrue(conv.contains("CONV_2D") && conv.contains("output multiplier"), conv)
    }

    /// The total decomposition never traps, and clamps as the reference does.
    func testQuantizedMultiplierIsTotal() throws {
        XCTAssertEqual(QuantizedMultiplier(.nan), QuantizedMultiplier(multiplier: 0, shift: 0))
        XCTAssertEqual(QuantizedMultiplier(.infinity), QuantizedMultiplier(multiplier: Int32.max, shift: 30))
        XCTAssertEqual(QuantizedMultiplier(-.infinity), QuantizedMultiplier(multiplier: Int32.max, shift: 30))
        XCTAssertEqual(QuantizedMultiplier(1e300), QuantizedMultiplier(multiplier: Int32.max, shift: 30))
        XCTAssertEqual(QuantizedMultiplier(1e-300), QuantizedMultiplier(multiplier: 0, shift: 0))
        XCTAssertEqual(QuantizedMultiplier(0.5), QuantizedMultiplier(multiplier: 1 << 30, shift: 0))
        XCTAssertEqual(QuantizedMultiplier(-0.5), QuantizedMultiplier(multiplier: -(1 << 30), shift: 0))
        XCTAssertThrowsError(try QuantizedMultiplier(checking: .nan, "x"))
        XCTAssertThrowsError(try QuantizedMultiplier(checking: .infinity, "x"))
        XCTAssertEqual(try QuantizedMultiplier(checking: 0.25, "x"), QuantizedMultiplier(0.25))
    }

    /// The significand rounds half away from zero, as `std::round` in the reference's
    /// `QuantizeMultiplier`: exact ties of both signs, and random values of every magnitude.
    func testQuantizedMultiplierRoundsHalfAwayFromZero() throws {
        let tie = 0.5 + 1.0 / 4_294_967_296      // q·2^31 = 2^30 + 0.5
        XCTAssertEqual(QuantizedMultiplier(tie), QuantizedMultiplier(multiplier: (1 << 30) + 1, shift: 0))
        XCTAssertEqual(QuantizedMultiplier(-tie), QuantizedMultiplier(multiplier: -(1 << 30) - 1, shift: 0))
        XCTAssertEqual(QuantizedMultiplier(1 - 1.0 / 8_589_934_592), QuantizedMultiplier(multiplier: 1 << 30, shift: 1),
                       "a significand rounding up to 1 moves to the next exponent")
        var generator = SeededGenerator(seed: 0x51CA1E)
        for _ in 0..<20_000 {
            let real = Double.random(in: 0.5..<1, using: &generator) * Double(sign: .plus, exponent: Int.random(in: -40...40, using: &generator), significand: 1)
                * (Bool.random(using: &generator) ? 1 : -1)
            var shift = Int(real.exponent) + 1
            var fixed = Int64((real.significand / 2 * Double(Int64(1) << 31)).rounded(.toNearestOrAwayFromZero)) * (real < 0 ? -1 : 1)
            if fixed == Int64(1) << 31 { fixed /= 2; shift += 1 }
            if shift < -31 { (shift, fixed) = (0, 0) }
            if shift > 30 { (shift, fixed) = (30, Int64(Int32.max)) }
            XCTAssertEqual(QuantizedMultiplier(real), QuantizedMultiplier(multiplier: Int32(fixed), shift: shift), "\(real)")
        }
    }

    // MARK: Zero-element inputs with huge dimensions

    func testZeroElementInputsWithHugeRowsAreRejectedBeforeAllocating() throws {
        for width in [1 << 40, 1 << 62] {
            let interpreter = try Interpreter(modelPath: try fixture("depthwise_resizable"), options: .init(threadCount: 1))
            do {
                try interpreter.resizeInput(at: 0, to: [1, 0, width, 3])
                try interpreter.allocateTensors()
                XCTFail("a [1, 0, \(width), 3] input was accepted")
            } catch let error as InterpreterError {
                XCTAssertTrue("\(error)".contains("DEPTHWISE_CONV_2D") || "\(error)".contains("input"), "\(error)")
            }
        }
        // The same model still runs at an ordinary size.
        let interpreter = try Interpreter(modelPath: try fixture("depthwise_resizable"), options: .init(threadCount: 1))
        try interpreter.resizeInput(at: 0, to: [1, 5, 7, 3])
        try interpreter.allocateTensors()
        try interpreter.copy(Data(repeating: 0, count: 5 * 7 * 3 * 4), toInputAt: 0)
        try interpreter.invoke()
        XCTAssertEqual(try interpreter.output(at: 0).shape, [1, 5, 7, 3])
    }

    // MARK: Memory: unused operators, total budget

    /// Four 1 GiB FILL operators whose outputs nothing reads never run: loading allocates nothing.
    func testUnusedOperatorsAllocateNothing() throws {
        let interpreter = try Interpreter(modelPath: try fixture("unused_gigabyte_fills"), options: .init(threadCount: 1))
        XCTAssertLessThan(interpreter.model.derivedConstantByteCount, 64, "at most realigned copies of tiny constants")
        try interpreter.allocateTensors()
        XCTAssertLessThanOrEqual(interpreter.arenaByteCount, 1024)
        try interpreter.copy(Data([Float(-1), 2, -3, 4].withUnsafeBytes { Array($0) }), toInputAt: 0)
        try interpreter.invoke()
        let output = try interpreter.output(at: 0).data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        XCTAssertEqual(output, [0, 2, 0, 4])
    }

    /// Outputs folded at load count against the total: 4 × 256 KiB pass under the default and
    /// fail under a 512 KiB budget, before the third block is allocated.
    func testTotalBudgetIsCheckedBeforeAllocating() throws {
        let model = try Model(path: try fixture("four_quarter_mebibyte_fills"))
        XCTAssertEqual(Double(model.derivedConstantByteCount), Double(4 << 18), accuracy: 64)
        var limits = ResourceLimits()
        limits.maximumTotalByteCount = 512 << 10
        let message = failure("four_quarter_mebibyte_fills", limits: limits)
        XCTAssertTrue(message.contains("maximumTotalByteCount") && message.contains("FILL"), message)
        limits = ResourceLimits()
        limits.maximumTensorByteCount = 128 << 10
        let perTensor = failure("four_quarter_mebibyte_fills", limits: limits)
        XCTAssertTrue(perTensor.contains("maximumTensorByteCount"), perTensor)
    }

    /// Four 1 GiB FILL outputs are not folded at load (they would amplify 8 bytes into 1 GiB);
    /// their 4 GiB arena is refused as a whole before anything is allocated.
    func testLargeOutputsAreCountedTogetherBeforeAllocating() throws {
        let interpreter = try Interpreter(modelPath: try fixture("four_gigabyte_fill_outputs"), options: .init(threadCount: 1))
        XCTAssertLessThan(interpreter.model.derivedConstantByteCount, 64)
        XCTAssertThrowsError(try interpreter.allocateTensors()) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("arena") && message.contains("maximumTotalByteCount"), message)
        }
        XCTAssertEqual(interpreter.arenaByteCount, 0)
    }

    func testArenaCountsAgainstTheBudget() throws {
        let path = try fixture("depthwise_resizable")
        let probe = try Interpreter(modelPath: path, options: .init(threadCount: 1))
        try probe.allocateTensors()
        XCTAssertGreaterThan(probe.arenaByteCount, 1024)
        var limits = ResourceLimits()
        // The constants fit, the arena on top of them does not (by one byte).
        limits.maximumTotalByteCount = probe.model.derivedConstantByteCount + probe.arenaByteCount - 1
        let interpreter = try Interpreter(modelPath: path, options: .init(threadCount: 1, resourceLimits: limits))
        XCTAssertThrowsError(try interpreter.allocateTensors()) { error in
            XCTAssertTrue("\(error)".contains("arena") && "\(error)".contains("maximumTotalByteCount"), "\(error)")
        }
    }

    // MARK: Kernel scratch counts against the total

    /// Kernel scratch is reserved against `maximumTotalByteCount` before it is allocated, even
    /// when it dwarfs the tensors: a uint8 depthwise convolution dilated by 1000 (256 B in and
    /// out) pads its input, as floats, to 64 MB of per-thread windows, which live in the arena.
    /// It runs under the default limits and fails under a limit its tensors fit in, at the arena.
    func testKernelScratchCountsAgainstTheTotalBeforeAllocating() throws {
        let (name, limit) = ("depthwise_dilated_scratch", 16 << 20)
        let runs = try Interpreter(modelPath: try fixture(name), options: .init(threadCount: 1))
        try runs.allocateTensors()
        try runs.invoke()
        XCTAssertGreaterThan(runs.arenaByteCount, 60 << 20, "\(name): the windows are not in the arena")
        var limits = ResourceLimits()
        limits.maximumTotalByteCount = limit
        let message = failure(name, limits: limits)
        XCTAssertTrue(message.contains("arena") && message.contains("maximumTotalByteCount"), "\(name): \(message)")
    }

    /// Per-invoke scratch is part of the arena and counted with it: a one-channel uint8 CONV_2D
    /// (128 KiB of tensors) gathers about 0.8–1.3 MB of patch rows for the integer GEMM, which
    /// the arena holds, so a limit the tensors alone fit in fails at the arena, before it is allocated.
    func testPerInvokeScratchIsCountedWithTheArena() throws {
        let (name, limit) = ("conv_patch_scratch", 512 << 10)
        let runs = try Interpreter(modelPath: try fixture(name), options: .init(threadCount: 1))
        try runs.allocateTensors()
        try runs.invoke()
        XCTAssertGreaterThan(runs.arenaByteCount, 800_000, "\(name): the patch rows are not in the arena")
        XCTAssertGreaterThan(runs.arenaUsage.peakLiveByteCount, 800_000, "\(name): the patch rows are not in the live set")
        var limits = ResourceLimits()
        limits.maximumTotalByteCount = limit
        let message = failure(name, limits: limits)
        XCTAssertTrue(message.contains("arena") && message.contains("maximumTotalByteCount"), "\(name): \(message)")
    }

    // MARK: Graph order

    func testCyclesAndSelfLoopsAreRejectedAtLoad() throws {
        for name in ["cycle", "self_loop"] {
            guard let path = try? fixture(name) else { return XCTFail("fixture \(name) is missing") }
            XCTAssertThrowsError(try Model(path: path), name) { error in
                let message = "\(error)"
                XCTAssertTrue(message.contains(name == "cycle" ? "before operator 1 writes it" : "reads its own output"), message)
            }
        }
    }

    // MARK: Outputs written without copies, messages that stay short

    func testOutputsAreWrittenAsNumPyWithoutCopies() throws {
        let interpreter = try Interpreter(modelPath: try fixture("unused_gigabyte_fills"), options: .init(threadCount: 1))
        try interpreter.invoke(with: [try NumPyArray(shape: [4], float32: [1, -2, 3, -4])])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(getpid()).npy").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try interpreter.writeOutput(at: 0, toNumPyFile: path)
        let array = try NumPyArray(contentsOf: path)
        XCTAssertEqual(array.doubleValues(), [1, 0, 3, 0])
        // A directory where the file should go: the reason, not a crash or a raw error dump.
        XCTAssertThrowsError(try interpreter.writeOutput(at: 0, toNumPyFile: FileManager.default.temporaryDirectory.path)) {
            XCTAssertTrue("\($0)".contains("Is a directory"), "\($0)")
        }
    }

    func testHugeNumPyDimensionListsGiveShortMessages() {
        let shape = "(" + String(repeating: "1, ", count: 1_000_000) + ")"
        var header = Array("{'descr': '<f4', 'fortran_order': False, 'shape': \(shape), }".utf8)
        header += Array(repeating: UInt8(ascii: " "), count: (64 - (12 + header.count + 1) % 64) % 64) + [10]
        var file: [UInt8] = [0x93] + Array("NUMPY".utf8) + [2, 0]
        for shift in [0, 8, 16, 24] { file.append(UInt8((header.count >> shift) & 0xFF)) }
        file += header
        XCTAssertThrowsError(try NumPyArray(npyData: Data(file))) { error in
            XCTAssertLessThan("\(error)".utf8.count, 200, "\(error)".prefix(300) + "…")
        }
    }
}
