import XCTest
@testable import MachineCode

final class ExecutableCodeTests: XCTestCase {
    /// A generated loop runs: sum of 1...n.
    func testGeneratedFunctionRuns() throws {
        #if arch(x86_64) && (os(Linux) || os(macOS))
        var a = Assembler()
        let loop = a.newLabel(), done = a.newLabel()
        a.xor(.rax, .rax, width: .dword)
        a.bind(loop)
        a.test(.rdi, .rdi)
        a.j(.equal, done)
        a.add(.rax, .rdi)
        a.dec(.rdi)
        a.jmp(loop)
        a.bind(done)
        a.ret()
        let code = try ExecutableCode(try a.finish())
        typealias Sum = @convention(c) (Int) -> Int
        let sum = unsafeBitCast(code.address(at: 0), to: Sum.self)
        XCTAssertEqual(withExtendedLifetime(code) { sum(100) }, 5050)
        #else
        throw XCTSkip("generated code runs on x86-64 Linux and macOS only")
        #endif
    }

    /// The profiler map names each function over its own bytes, by address whatever order the
    /// names come in, and leaves out functions that are empty (a name at the same offset as a
    /// later one).
    func testProfilerMapNamesEachFunctionByAddress() throws {
        #if os(Linux)
        let code = try ExecutableCode([UInt8](repeating: 0xC3, count: 48))
        let path = "/tmp/perf-\(getpid()).map"
        let existed = FileManager.default.fileExists(atPath: path)
        let before = existed ? try String(contentsOfFile: path, encoding: .utf8) : ""
        setenv("LITEVISION_PERF_MAP", "1", 1)
        code.describeForProfilers([("third", 40), ("first", 0), ("emptySecond", 16), ("second", 16), ("emptyLast", 48)])
        unsetenv("LITEVISION_PERF_MAP")
        let after = try String(contentsOfFile: path, encoding: .utf8)
        if !existed { try FileManager.default.removeItem(atPath: path) }
        let base = UInt(bitPattern: code.base)
        func line(_ offset: UInt, _ size: UInt, _ name: String) -> String {
            "\(String(base + offset, radix: 16)) \(String(size, radix: 16)) \(name)"
        }
        XCTAssertEqual(after.dropFirst(before.count).split(separator: "\n").map(String.init),
                       [line(0, 16, "first"), line(16, 24, "second"), line(40, 8, "third")])
        #else
        throw XCTSkip("the profiler map is written on Linux only")
        #endif
    }

    /// The pages are never writable and executable at once.
    func testPagesAreReadExecuteNotWritable() throws {
        #if arch(x86_64) && os(Linux)
        let code = try ExecutableCode([0xC3])
        let start = UInt(bitPattern: code.base)
        // /proc files report size 0: read to the end instead of by size.
        let handle = try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/self/maps"))
        let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        let line = maps.split(separator: "\n").first { line in
            let range = line.split(separator: " ")[0].split(separator: "-").map { UInt($0, radix: 16)! }
            return range[0] <= start && start < range[1]
        }
        let permissions = try XCTUnwrap(line).split(separator: " ")[1]
        XCTAssertTrue(permissions.hasPrefix("r-x"), "mapping is \(permissions)")
        withExtendedLifetime(code) {}
        #else
        throw XCTSkip("/proc/self/maps is Linux-only")
        #endif
    }
}

final class CPUFeatureTests: XCTestCase {
    /// CPUID through the generated stub agrees with what the kernel reports in /proc/cpuinfo.
    func testFeaturesMatchProcCPUInfo() throws {
        #if arch(x86_64) && os(Linux)
        let features = try XCTUnwrap(CPUFeatures.current)
        let info = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let flags = Set(try XCTUnwrap(info.split(separator: "\n").first { $0.hasPrefix("flags") })
            .split(separator: " ").map(String.init))
        XCTAssertEqual(features.sse2, flags.contains("sse2"))
        XCTAssertEqual(features.avx2, flags.contains("avx2"))
        XCTAssertEqual(features.fma, flags.contains("fma"))
        XCTAssertEqual(features.avx512f, flags.contains("avx512f"))
        XCTAssertEqual(features.avx512bw, flags.contains("avx512bw"))
        XCTAssertEqual(features.avx512vl, flags.contains("avx512vl"))
        XCTAssertEqual(features.avx512vnni, flags.contains("avx512_vnni"))
        XCTAssertEqual(features.avxvnni, flags.contains("avx_vnni"))
        // The first processor's vendor and family, as the kernel decodes them.
        func field(_ name: String) -> String? {
            info.split(separator: "\n").first { $0.hasPrefix(name) }.map { $0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces) }
        }
        XCTAssertEqual(features.splitsZMMOperations,
                       field("vendor_id") == "AuthenticAMD" && field("cpu family") == "25" && flags.contains("avx512f"))
        print("CPU features: \(features); splits zmm operations: \(features.splitsZMMOperations); policy: \(CodeGenerationPolicy.current)")
        #else
        throw XCTSkip("/proc/cpuinfo is Linux-only")
        #endif
    }

    func testLevelsFromFeatureBits() {
        let avx2 = CPUFeatures(leaf1: (0, 0, 1 << 28 | 1 << 12 | 1 << 27, 1 << 26), leaf7: (0, 1 << 5, 0, 0),
                               leaf7sub1: (0, 0, 0, 0), xcr0: 0x7)
        XCTAssertEqual(avx2.supportedLevel, .avx2)
        var noOS = avx2
        noOS.osSavesYMM = false
        XCTAssertEqual(noOS.supportedLevel, .sse2, "AVX registers unusable when the OS does not save them")
        let desktop = CPUFeatures(leaf1: (0, 0, 1 << 28 | 1 << 12 | 1 << 27, 1 << 26), leaf7: (0, 1 << 5, 0, 0),
                                  leaf7sub1: (1 << 4, 0, 0, 0), xcr0: 0x7)
        XCTAssertEqual(desktop.supportedLevel, .avxvnni, "AVX2 with AVX-VNNI (CPUID.7.1:EAX bit 4), no AVX-512")
        let zmm = CPUFeatures(leaf1: (0, 0, 1 << 28 | 1 << 12 | 1 << 27, 1 << 26),
                              leaf7: (0, 1 << 5 | 1 << 16 | 1 << 17 | 1 << 30 | 1 << 31, 1 << 11, 0),
                              leaf7sub1: (1 << 4, 0, 0, 0), xcr0: 0xE7)
        XCTAssertEqual(zmm.supportedLevel, .avx512vnni)
        XCTAssertTrue(zmm.avxvnni)
        XCTAssertFalse(zmm.avx512vbmi)
        let vbmi = CPUFeatures(leaf1: (0, 0, 0, 0), leaf7: (0, 0, 1 << 1, 0), leaf7sub1: (0, 0, 0, 0), xcr0: nil)
        XCTAssertTrue(vbmi.avx512vbmi, "CPUID.7.0:ECX bit 1")
    }

    /// Only AMD family 19h with AVX-512 (Zen 4) splits zmm operations: the vendor string of leaf 0
    /// ("AuthenticAMD" / "GenuineIntel" in ebx, edx, ecx) and leaf 1's display family (base 0xF
    /// plus the extended family).
    func testZMMSplittingFromVendorAndFamily() {
        let amd: (UInt32, UInt32, UInt32, UInt32) = (0x10, 0x6874_7541, 0x444D_4163, 0x6974_6E65)
        let intel: (UInt32, UInt32, UInt32, UInt32) = (0x20, 0x756E_6547, 0x6C65_746E, 0x4965_6E69)
        let avx512: (UInt32, UInt32, UInt32, UInt32) = (0, 1 << 5 | 1 << 16 | 1 << 17 | 1 << 30 | 1 << 31, 1 << 11, 0)
        func features(_ leaf0: (UInt32, UInt32, UInt32, UInt32)?, eax: UInt32, leaf7: (UInt32, UInt32, UInt32, UInt32)) -> CPUFeatures {
            CPUFeatures(leaf0: leaf0, leaf1: (eax, 0, 1 << 28 | 1 << 12 | 1 << 27, 1 << 26), leaf7: leaf7,
                        leaf7sub1: (0, 0, 0, 0), xcr0: 0xE7)
        }
        let zen4 = UInt32(0x00A1_0F11), zen5 = UInt32(0x00B0_0F21), sapphireRapids = UInt32(0x0008_06F8)
        XCTAssertTrue(features(amd, eax: zen4, leaf7: avx512).splitsZMMOperations, "EPYC family 25 model 17")
        XCTAssertFalse(features(amd, eax: zen4, leaf7: (0, 1 << 5, 0, 0)).splitsZMMOperations, "family 19h without AVX-512 (Zen 3)")
        XCTAssertFalse(features(amd, eax: zen5, leaf7: avx512).splitsZMMOperations, "family 1Ah (Zen 5)")
        XCTAssertFalse(features(intel, eax: sapphireRapids, leaf7: avx512).splitsZMMOperations, "Intel family 6")
        XCTAssertFalse(features(nil, eax: zen4, leaf7: avx512).splitsZMMOperations, "no vendor given")
    }

    func testPolicyCapsAndSwitches() {
        var f = CPUFeatures()
        f.sse2 = true; f.avx = true; f.avx2 = true; f.fma = true; f.osSavesYMM = true
        f.avx512f = true; f.avx512bw = true; f.avx512dq = true; f.avx512vl = true; f.avx512vnni = true; f.osSavesZMM = true
        XCTAssertEqual(CodeGenerationPolicy.resolve(features: f, environment: [:]).level,
                       InstructionSetLevel.verifiedOnHardware.contains(.avx512vnni) ? .avx512vnni : .avx2)
        XCTAssertEqual(CodeGenerationPolicy.resolve(features: f, environment: ["LITEVISION_ISA": "avx512"]).level, .avx512)
        XCTAssertEqual(CodeGenerationPolicy.resolve(features: f, environment: ["LITEVISION_ISA": "avxvnni"]).level, .avxvnni)
        XCTAssertEqual(CodeGenerationPolicy.resolve(features: f, environment: ["LITEVISION_ISA": "sse2"]).level, .sse2)
        XCTAssertEqual(CodeGenerationPolicy.resolve(features: f, environment: ["LITEVISION_JIT": "0"]).level, .sse2)
        XCTAssertFalse(CodeGenerationPolicy.resolve(features: nil, environment: [:]).generatesCode)
        var avx2Only = f
        avx2Only.avx512f = false
        XCTAssertEqual(CodeGenerationPolicy.resolve(features: avx2Only, environment: ["LITEVISION_ISA": "avx512vnni"]).level, .avx2,
                       "the cap never raises the level above the CPU's")
        XCTAssertTrue(CodeGenerationPolicy.resolve(features: f, environment: ["LITEVISION_ISA": "bogus"]).reason.contains("ignored"))
    }
}
