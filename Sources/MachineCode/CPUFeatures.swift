#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The vector features of the CPU this process runs on, read at run time with CPUID and XGETBV
/// (through a generated stub, since Swift has no inline assembly), and the kernel level chosen
/// from them.
public struct CPUFeatures: Sendable, Equatable, CustomStringConvertible {
    public var sse2 = false
    public var avx = false
    public var avx2 = false
    public var fma = false
    public var avx512f = false
    public var avx512bw = false
    public var avx512dq = false
    public var avx512vl = false
    public var avx512vnni = false
    /// AVX512-VBMI (byte permutes such as `vpermi2b`): used by kernels beside the levels, where present.
    public var avx512vbmi = false
    public var avxvnni = false
    /// XCR0 says the OS saves ymm state.
    public var osSavesYMM = false
    /// XCR0 says the OS saves zmm and opmask state.
    public var osSavesZMM = false
    /// The CPU issues each 512-bit operation as two 256-bit halves (AMD family 19h, Zen 4:
    /// CPUID vendor "AuthenticAMD", display family 0x19, with AVX-512). There a separate
    /// broadcast costs a vector pipe that a broadcast memory operand does not, and tiles of one
    /// 16-lane panel beat two (`FloatConvKernelShape`).
    public var splitsZMMOperations = false

    public init() {}

    /// The highest level these features support.
    public var supportedLevel: InstructionSetLevel {
        guard avx && avx2 && fma && osSavesYMM else { return .sse2 }
        guard avx512f && avx512bw && avx512dq && avx512vl && osSavesZMM else { return avxvnni ? .avxvnni : .avx2 }
        return avx512vnni ? .avx512vnni : .avx512
    }

    public var description: String {
        let names: [(Bool, String)] = [(sse2, "sse2"), (avx, "avx"), (avx2, "avx2"), (fma, "fma"), (avxvnni, "avx-vnni"),
                                       (avx512f, "avx512f"), (avx512bw, "avx512bw"), (avx512dq, "avx512dq"),
                                       (avx512vl, "avx512vl"), (avx512vnni, "avx512vnni"), (avx512vbmi, "avx512vbmi")]
        return names.filter(\.0).map(\.1).joined(separator: " ")
    }

    /// Decodes the CPUID leaves 0 (the vendor, when given), 1 and 7 (subleaves 0 and 1) and XCR0.
    /// Registers are `(eax, ebx, ecx, edx)`.
    public init(leaf0: (UInt32, UInt32, UInt32, UInt32)? = nil, leaf1: (UInt32, UInt32, UInt32, UInt32),
                leaf7: (UInt32, UInt32, UInt32, UInt32), leaf7sub1: (UInt32, UInt32, UInt32, UInt32), xcr0: UInt64?) {
        func bit(_ value: UInt32, _ n: Int) -> Bool { value >> UInt32(n) & 1 == 1 }
        // "AuthenticAMD" in ebx, edx, ecx; the display family adds the extended family to 0xF.
        let amd = leaf0.map { $0.1 == 0x6874_7541 && $0.3 == 0x6974_6E65 && $0.2 == 0x444D_4163 } ?? false
        let baseFamily = leaf1.0 >> 8 & 0xF
        let family = baseFamily == 0xF ? baseFamily + (leaf1.0 >> 20 & 0xFF) : baseFamily
        sse2 = bit(leaf1.3, 26)
        avx = bit(leaf1.2, 28)
        fma = bit(leaf1.2, 12)
        avx2 = bit(leaf7.1, 5)
        avx512f = bit(leaf7.1, 16)
        avx512dq = bit(leaf7.1, 17)
        avx512bw = bit(leaf7.1, 30)
        avx512vl = bit(leaf7.1, 31)
        avx512vnni = bit(leaf7.2, 11)
        avx512vbmi = bit(leaf7.2, 1)
        avxvnni = bit(leaf7sub1.0, 4)
        if let xcr0 {
            osSavesYMM = xcr0 & 0x6 == 0x6
            osSavesZMM = xcr0 & 0xE6 == 0xE6
        }
        splitsZMMOperations = amd && family == 0x19 && avx512f
    }

    /// The features of this CPU, or nil where they cannot be read (not x86-64, or no
    /// executable memory for the stub).
    public static let current: CPUFeatures? = read()

    private static func read() -> CPUFeatures? {
        #if arch(x86_64)
        var a = Assembler()
        // cpuid(leaf: edi, subleaf: esi, out: rdx) writes eax, ebx, ecx, edx to out[0..<4].
        a.push(.rbx)
        a.mov(.r8, .rdx)
        a.mov(.rax, .rdi, width: .dword)
        a.mov(.rcx, .rsi, width: .dword)
        a.cpuid()
        a.mov(.mem(.r8), .rax, width: .dword)
        a.mov(.mem(.r8, disp: 4), .rbx, width: .dword)
        a.mov(.mem(.r8, disp: 8), .rcx, width: .dword)
        a.mov(.mem(.r8, disp: 12), .rdx, width: .dword)
        a.pop(.rbx)
        a.ret()
        let xgetbvEntry = a.count
        // xgetbv(register: edi) -> edx:eax as one 64-bit value.
        a.mov(.rcx, .rdi, width: .dword)
        a.xgetbv()
        a.shl(.rdx, 32)
        a.or(.rax, .rdx)
        a.ret()
        guard let bytes = try? a.finish(), let code = try? ExecutableCode(bytes) else { return nil }
        typealias CPUID = @convention(c) (UInt32, UInt32, UnsafeMutablePointer<UInt32>) -> Void
        typealias XGETBV = @convention(c) (UInt32) -> UInt64
        let cpuid = unsafeBitCast(code.address(at: 0), to: CPUID.self)
        let xgetbv = unsafeBitCast(code.address(at: xgetbvEntry), to: XGETBV.self)
        func leaf(_ n: UInt32, _ sub: UInt32) -> (UInt32, UInt32, UInt32, UInt32) {
            var r = [UInt32](repeating: 0, count: 4)
            r.withUnsafeMutableBufferPointer { cpuid(n, sub, $0.baseAddress!) }
            return (r[0], r[1], r[2], r[3])
        }
        let l0 = leaf(0, 0), maxLeaf = l0.0
        let l1 = leaf(1, 0)
        let l7 = maxLeaf >= 7 ? leaf(7, 0) : (0, 0, 0, 0)
        let l7s1 = maxLeaf >= 7 && l7.0 >= 1 ? leaf(7, 1) : (0, 0, 0, 0)
        // XGETBV exists only when the OS enabled XSAVE (CPUID.1:ECX.OSXSAVE).
        let xcr0 = l1.2 >> 27 & 1 == 1 ? xgetbv(0) : nil
        return withExtendedLifetime(code) { CPUFeatures(leaf0: l0, leaf1: l1, leaf7: l7, leaf7sub1: l7s1, xcr0: xcr0) }
        #else
        return nil
        #endif
    }
}
