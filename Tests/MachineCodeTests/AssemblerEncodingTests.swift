import XCTest
@testable import MachineCode

/// Every instruction form the generated kernels use, against the bytes GNU `as` (binutils 2.40,
/// `.intel_syntax noprefix`) produces for the same line; `{vex}` forces AVX-VNNI's VEX form.
final class AssemblerEncodingTests: XCTestCase {
    typealias Case = (asm: String, bytes: [UInt8], emit: @Sendable (inout Assembler) -> Void)

    static let cases: [Case] = [
        ("mov rax, rdi", [0x48, 0x89, 0xF8], { a in a.mov(.rax, .rdi) }),
        ("mov r8, rdx", [0x49, 0x89, 0xD0], { a in a.mov(.r8, .rdx) }),
        ("mov eax, edi", [0x89, 0xF8], { a in a.mov(.rax, .rdi, width: .dword) }),
        ("mov r12, [rdi+8]", [0x4C, 0x8B, 0x67, 0x08], { a in a.mov(.r12, .mem(.rdi, disp: 8)) }),
        ("mov rbx, [r13]", [0x49, 0x8B, 0x5D, 0x00], { a in a.mov(.rbx, .mem(.r13)) }),
        ("mov rax, [rsp+56]", [0x48, 0x8B, 0x44, 0x24, 0x38], { a in a.mov(.rax, .mem(.rsp, disp: 56)) }),
        ("mov r10, [r12+1024]", [0x4D, 0x8B, 0x94, 0x24, 0x00, 0x04, 0x00, 0x00], { a in a.mov(.r10, .mem(.r12, disp: 1024)) }),
        ("mov rcx, [rbp]", [0x48, 0x8B, 0x4D, 0x00], { a in a.mov(.rcx, .mem(.rbp)) }),
        ("mov r11, [rdi+rsi*8-16]", [0x4C, 0x8B, 0x5C, 0xF7, 0xF0], { a in a.mov(.r11, .mem(.rdi, index: .rsi, scale: 8, disp: -16)) }),
        ("mov rax, [r8+r15*4]", [0x4B, 0x8B, 0x04, 0xB8], { a in a.mov(.rax, .mem(.r8, index: .r15, scale: 4)) }),
        ("mov [r8+4], ebx", [0x41, 0x89, 0x58, 0x04], { a in a.mov(.mem(.r8, disp: 4), .rbx, width: .dword) }),
        ("mov [rsp], r9", [0x4C, 0x89, 0x0C, 0x24], { a in a.mov(.mem(.rsp), .r9) }),
        ("mov r9, 100", [0x49, 0xC7, 0xC1, 0x64, 0x00, 0x00, 0x00], { a in a.mov(.r9, 100) }),
        ("mov eax, -1", [0xB8, 0xFF, 0xFF, 0xFF, 0xFF], { a in a.mov(.rax, -1, width: .dword) }),
        ("mov r14d, 0x12345", [0x41, 0xBE, 0x45, 0x23, 0x01, 0x00], { a in a.mov(.r14, 0x12345, width: .dword) }),
        ("lea rax, [rdi+rdx*2+12]", [0x48, 0x8D, 0x44, 0x57, 0x0C], { a in a.lea(.rax, .mem(.rdi, index: .rdx, scale: 2, disp: 12)) }),
        ("lea r13, [r13+64]", [0x4D, 0x8D, 0x6D, 0x40], { a in a.lea(.r13, .mem(.r13, disp: 64)) }),
        ("add rcx, r9", [0x4C, 0x01, 0xC9], { a in a.add(.rcx, .r9) }),
        ("add rsi, 64", [0x48, 0x83, 0xC6, 0x40], { a in a.add(.rsi, 64) }),
        ("add r10, 4096", [0x49, 0x81, 0xC2, 0x00, 0x10, 0x00, 0x00], { a in a.add(.r10, 4096) }),
        ("add rax, 1000", [0x48, 0x05, 0xE8, 0x03, 0x00, 0x00], { a in a.add(.rax, 1000) }),
        ("sub rsp, 8", [0x48, 0x83, 0xEC, 0x08], { a in a.sub(.rsp, 8) }),
        ("sub r15, rax", [0x49, 0x29, 0xC7], { a in a.sub(.r15, .rax) }),
        ("sub rdx, 300", [0x48, 0x81, 0xEA, 0x2C, 0x01, 0x00, 0x00], { a in a.sub(.rdx, 300) }),
        ("cmp rax, r11", [0x4C, 0x39, 0xD8], { a in a.cmp(.rax, .r11) }),
        ("cmp r9, 4", [0x49, 0x83, 0xF9, 0x04], { a in a.cmp(.r9, 4) }),
        ("cmp r9, r10", [0x4D, 0x39, 0xD1], { a in a.cmp(.r9, .r10) }),
        ("add r9, 64", [0x49, 0x83, 0xC1, 0x40], { a in a.add(.r9, 64) }),
        ("add r11, rcx", [0x49, 0x01, 0xCB], { a in a.add(.r11, .rcx) }),
        ("cmp rax, 500", [0x48, 0x3D, 0xF4, 0x01, 0x00, 0x00], { a in a.cmp(.rax, 500) }),
        ("test rsi, rsi", [0x48, 0x85, 0xF6], { a in a.test(.rsi, .rsi) }),
        ("xor eax, eax", [0x31, 0xC0], { a in a.xor(.rax, .rax, width: .dword) }),
        ("or rax, rdx", [0x48, 0x09, 0xD0], { a in a.or(.rax, .rdx) }),
        ("imul rdx, r12", [0x49, 0x0F, 0xAF, 0xD4], { a in a.imul(.rdx, .r12) }),
        ("shl rdx, 32", [0x48, 0xC1, 0xE2, 0x20], { a in a.shl(.rdx, 32) }),
        ("shr rcx, 4", [0x48, 0xC1, 0xE9, 0x04], { a in a.shr(.rcx, 4) }),
        ("dec r14", [0x49, 0xFF, 0xCE], { a in a.dec(.r14) }),
        ("push rbx", [0x53], { a in a.push(.rbx) }),
        ("push r15", [0x41, 0x57], { a in a.push(.r15) }),
        ("pop r12", [0x41, 0x5C], { a in a.pop(.r12) }),
        ("ret", [0xC3], { a in a.ret() }),
        ("cpuid", [0x0F, 0xA2], { a in a.cpuid() }),
        ("xgetbv", [0x0F, 0x01, 0xD0], { a in a.xgetbv() }),
        ("vzeroupper", [0xC5, 0xF8, 0x77], { a in a.vzeroupper() }),
        ("vmovups ymm3, [rcx+32]", [0xC5, 0xFC, 0x10, 0x59, 0x20], { a in a.vmovups(ymm(3), .mem(.rcx, disp: 32)) }),
        ("vmovups ymm12, [r9]", [0xC4, 0x41, 0x7C, 0x10, 0x21], { a in a.vmovups(ymm(12), .mem(.r9)) }),
        ("vmovups [r8+96], ymm7", [0xC4, 0xC1, 0x7C, 0x11, 0x78, 0x60], { a in a.vmovups(.mem(.r8, disp: 96), ymm(7)) }),
        ("vmovups [rax+r10], ymm14", [0xC4, 0x21, 0x7C, 0x11, 0x34, 0x10], { a in a.vmovups(.mem(.rax, index: .r10, scale: 1), ymm(14)) }),
        ("vmovups zmm2, [rcx+128]", [0x62, 0xF1, 0x7C, 0x48, 0x10, 0x51, 0x02], { a in a.vmovups(zmm(2), .mem(.rcx, disp: 128)) }),
        ("vmovups zmm20, [rcx+100]", [0x62, 0xE1, 0x7C, 0x48, 0x10, 0xA1, 0x64, 0x00, 0x00, 0x00], { a in a.vmovups(zmm(20), .mem(.rcx, disp: 100)) }),
        ("vmovups [rdi+64]{k1}, zmm31", [0x62, 0x61, 0x7C, 0x49, 0x11, 0x7F, 0x01], { a in a.vmovups(.mem(.rdi, disp: 64), zmm(31), mask: k(1)) }),
        ("vmovups zmm5{k2}{z}, [r12]", [0x62, 0xD1, 0x7C, 0xCA, 0x10, 0x2C, 0x24], { a in a.vmovups(zmm(5), .mem(.r12), mask: k(2), zeroing: true) }),
        ("vmulps zmm10{k1}{z}, zmm8, [rbp]", [0x62, 0x71, 0x3C, 0xC9, 0x59, 0x55, 0x00],
         { a in a.vmulps(zmm(10), zmm(8), .memory(.mem(.rbp)), mask: k(1), zeroing: true) }),
        ("vmulps zmm10{k1}{z}, zmm8, [rbp+r13]", [0x62, 0x31, 0x3C, 0xC9, 0x59, 0x54, 0x2D, 0x00],
         { a in a.vmulps(zmm(10), zmm(8), .memory(.mem(.rbp, index: .r13, scale: 1)), mask: k(1), zeroing: true) }),
        ("vmulps zmm10{k1}{z}, zmm8, [rdx+r13]", [0x62, 0x31, 0x3C, 0xC9, 0x59, 0x14, 0x2A],
         { a in a.vmulps(zmm(10), zmm(8), .memory(.mem(.rdx, index: .r13, scale: 1)), mask: k(1), zeroing: true) }),
        ("vfmadd231ps zmm0{k1}, zmm8, [rbp]", [0x62, 0xF2, 0x3D, 0x49, 0xB8, 0x45, 0x00],
         { a in a.vfmadd231ps(zmm(0), zmm(8), .memory(.mem(.rbp)), mask: k(1)) }),
        ("vfmadd231ps zmm7{k1}, zmm8, [r10+r13]", [0x62, 0x92, 0x3D, 0x49, 0xB8, 0x3C, 0x2A],
         { a in a.vfmadd231ps(zmm(7), zmm(8), .memory(.mem(.r10, index: .r13, scale: 1)), mask: k(1)) }),
        ("vfmadd231ps ymm3, ymm9, [rdx+r13+32]", [0xC4, 0xA2, 0x35, 0xB8, 0x5C, 0x2A, 0x20],
         { a in a.vfmadd231ps(ymm(3), ymm(9), .memory(.mem(.rdx, index: .r13, scale: 1, disp: 32))) }),
        ("lea r9, [rbp+r13*4]", [0x4E, 0x8D, 0x4C, 0xAD, 0x00], { a in a.lea(.r9, .mem(.rbp, index: .r13, scale: 4)) }),
        ("lea r10, [r9+r13*2]", [0x4F, 0x8D, 0x14, 0x69], { a in a.lea(.r10, .mem(.r9, index: .r13, scale: 2)) }),
        ("mov r15, [rsp+16]", [0x4C, 0x8B, 0x7C, 0x24, 0x10], { a in a.mov(.r15, .mem(.rsp, disp: 16)) }),
        ("vpmovsxbd zmm0, [rsi+16]", [0x62, 0xF2, 0x7D, 0x48, 0x21, 0x46, 0x01], { a in a.vpmovsxbd(zmm(0), .mem(.rsi, disp: 16)) }),
        ("vpmovzxbd zmm0, [rsi+16]", [0x62, 0xF2, 0x7D, 0x48, 0x31, 0x46, 0x01], { a in a.vpmovzxbd(zmm(0), .mem(.rsi, disp: 16)) }),
        ("vpmovsxbd ymm0, [rsi+8]", [0xC4, 0xE2, 0x7D, 0x21, 0x46, 0x08], { a in a.vpmovsxbd(ymm(0), .mem(.rsi, disp: 8)) }),
        ("vpmovzxbd ymm2, [rsi]", [0xC4, 0xE2, 0x7D, 0x31, 0x16], { a in a.vpmovzxbd(ymm(2), .mem(.rsi)) }),
        ("vcvtdq2ps zmm0, zmm0", [0x62, 0xF1, 0x7C, 0x48, 0x5B, 0xC0], { a in a.vcvtdq2ps(zmm(0), zmm(0)) }),
        ("vcvtdq2ps ymm1, ymm0", [0xC5, 0xFC, 0x5B, 0xC8], { a in a.vcvtdq2ps(ymm(1), ymm(0)) }),
        ("vpermi2b zmm0, zmm4, zmm5", [0x62, 0xF2, 0x5D, 0x48, 0x75, 0xC5], { a in a.vpermi2b(zmm(0), zmm(4), zmm(5)) }),
        ("vpermi2b zmm1, zmm6, zmm7", [0x62, 0xF2, 0x4D, 0x48, 0x75, 0xCF], { a in a.vpermi2b(zmm(1), zmm(6), zmm(7)) }),
        ("vpmovb2m k1, zmm0", [0x62, 0xF2, 0x7E, 0x48, 0x29, 0xC8], { a in a.vpmovb2m(k(1), zmm(0)) }),
        ("vpblendmb zmm0{k1}, zmm0, zmm1", [0x62, 0xF2, 0x7D, 0x49, 0x66, 0xC1], { a in a.vpblendmb(zmm(0), zmm(0), zmm(1), mask: k(1)) }),
        ("vmovaps zmm1, zmm0", [0x62, 0xF1, 0x7C, 0x48, 0x28, 0xC8], { a in a.vmovaps(zmm(1), zmm(0)) }),
        ("vmovups zmm8{k1}{z}, [rbx]", [0x62, 0x71, 0x7C, 0xC9, 0x10, 0x03], { a in a.vmovups(zmm(8), .mem(.rbx), mask: k(1), zeroing: true) }),
        ("vmovups [rcx+r14]{k1}, zmm1", [0x62, 0xB1, 0x7C, 0x49, 0x11, 0x0C, 0x31],
         { a in a.vmovups(.mem(.rcx, index: .r14, scale: 1), zmm(1), mask: k(1)) }),
        ("vmovaps ymm1, ymm9", [0xC5, 0x7C, 0x29, 0xC9], { a in a.vmovaps(ymm(1), ymm(9)) }),
        ("vbroadcastss ymm14, [rax+4]", [0xC4, 0x62, 0x7D, 0x18, 0x70, 0x04], { a in a.vbroadcastss(ymm(14), .mem(.rax, disp: 4)) }),
        ("vbroadcastss ymm2, [r13+r14]", [0xC4, 0x82, 0x7D, 0x18, 0x54, 0x35, 0x00], { a in a.vbroadcastss(ymm(2), .mem(.r13, index: .r14, scale: 1)) }),
        ("vbroadcastss zmm25, [r9+r15]", [0x62, 0x02, 0x7D, 0x48, 0x18, 0x0C, 0x39], { a in a.vbroadcastss(zmm(25), .mem(.r9, index: .r15, scale: 1)) }),
        ("vbroadcastss zmm18, [rax+r15]", [0x62, 0xA2, 0x7D, 0x48, 0x18, 0x14, 0x38], { a in a.vbroadcastss(zmm(18), .mem(.rax, index: .r15, scale: 1)) }),
        ("vmulps zmm31, zmm17, zmm25", [0x62, 0x01, 0x74, 0x40, 0x59, 0xF9], { a in a.vmulps(zmm(31), zmm(17), zmm(25)) }),
        ("vmovups zmm0{k1}{z}, [rsi+r9]", [0x62, 0xB1, 0x7C, 0xC9, 0x10, 0x04, 0x0E], { a in a.vmovups(zmm(0), .mem(.rsi, index: .r9, scale: 1), mask: k(1), zeroing: true) }),
        ("vmovups zmm1{k1}{z}, [r8+r9]", [0x62, 0x91, 0x7C, 0xC9, 0x10, 0x0C, 0x08], { a in a.vmovups(zmm(1), .mem(.r8, index: .r9, scale: 1), mask: k(1), zeroing: true) }),
        ("vmovups [r11+r9]{k1}, zmm0", [0x62, 0x91, 0x7C, 0x49, 0x11, 0x04, 0x0B], { a in a.vmovups(.mem(.r11, index: .r9, scale: 1), zmm(0), mask: k(1)) }),
        ("vmovups ymm1, [r8+r9]", [0xC4, 0x81, 0x7C, 0x10, 0x0C, 0x08], { a in a.vmovups(ymm(1), .mem(.r8, index: .r9, scale: 1)) }),
        ("vmovups [r11+r9], ymm0", [0xC4, 0x81, 0x7C, 0x11, 0x04, 0x0B], { a in a.vmovups(.mem(.r11, index: .r9, scale: 1), ymm(0)) }),
        ("vmaxps zmm0, zmm14, zmm0", [0x62, 0xF1, 0x0C, 0x48, 0x5F, 0xC0], { a in a.vmaxps(zmm(0), zmm(14), zmm(0)) }),
        ("vminps ymm0, ymm15, ymm0", [0xC5, 0x84, 0x5D, 0xC0], { a in a.vminps(ymm(0), ymm(15), ymm(0)) }),
        ("vbroadcastss zmm14, [rdi+48]", [0x62, 0x72, 0x7D, 0x48, 0x18, 0x77, 0x0C], { a in a.vbroadcastss(zmm(14), .mem(.rdi, disp: 48)) }),
        ("vbroadcastss zmm16, [rdx+8]", [0x62, 0xE2, 0x7D, 0x48, 0x18, 0x42, 0x02], { a in a.vbroadcastss(zmm(16), .mem(.rdx, disp: 8)) }),
        ("vpbroadcastd ymm10, [r11+12]", [0xC4, 0x42, 0x7D, 0x58, 0x53, 0x0C], { a in a.vpbroadcastd(ymm(10), .mem(.r11, disp: 12)) }),
        ("vpbroadcastd zmm30, [rbx+r14]", [0x62, 0x22, 0x7D, 0x48, 0x58, 0x34, 0x33], { a in a.vpbroadcastd(zmm(30), .mem(.rbx, index: .r14, scale: 1)) }),
        ("vmaskmovps [rdi], ymm15, ymm0", [0xC4, 0xE2, 0x05, 0x2E, 0x07], { a in a.vmaskmovps(.mem(.rdi), ymm(15), ymm(0)) }),
        ("vfmadd231ps ymm0, ymm14, ymm12", [0xC4, 0xC2, 0x0D, 0xB8, 0xC4], { a in a.vfmadd231ps(ymm(0), ymm(14), ymm(12)) }),
        ("vfmadd231ps ymm11, ymm15, [rcx+32]", [0xC4, 0x62, 0x05, 0xB8, 0x59, 0x20], { a in a.vfmadd231ps(ymm(11), ymm(15), .mem(.rcx, disp: 32)) }),
        ("vfmadd231ps zmm3, zmm0, [rsi+64]", [0x62, 0xF2, 0x7D, 0x48, 0xB8, 0x5E, 0x01], { a in a.vfmadd231ps(zmm(3), zmm(0), .mem(.rsi, disp: 64)) }),
        ("vfmadd231ps zmm24, zmm1, dword ptr [rax+8]{1to16}", [0x62, 0x62, 0x75, 0x58, 0xB8, 0x40, 0x02], { a in a.vfmadd231ps(zmm(24), zmm(1), .broadcast(.rax, disp: 8)) }),
        ("vfmadd231ps zmm5, zmm17, [r12+r15]{1to16}", [0x62, 0x92, 0x75, 0x50, 0xB8, 0x2C, 0x3C], { a in a.vfmadd231ps(zmm(5), zmm(17), .memory(MemoryOperand(base: .r12, index: .r15, broadcast: true))) }),
        ("vfmadd231ps zmm14, zmm16, [rax+r15]{1to16}", [0x62, 0x32, 0x7D, 0x50, 0xB8, 0x34, 0x38], { a in a.vfmadd231ps(zmm(14), zmm(16), .memory(MemoryOperand(base: .rax, index: .r15, broadcast: true))) }),
        ("vfmadd231ps ymm11, ymm14, ymm13", [0xC4, 0x42, 0x0D, 0xB8, 0xDD], { a in a.vfmadd231ps(ymm(11), ymm(14), ymm(13)) }),
        ("vfmadd231ps zmm8, zmm29, zmm17", [0x62, 0x32, 0x15, 0x40, 0xB8, 0xC1], { a in a.vfmadd231ps(zmm(8), zmm(29), zmm(17)) }),
        ("vaddps ymm0, ymm0, ymm12", [0xC4, 0xC1, 0x7C, 0x58, 0xC4], { a in a.vaddps(ymm(0), ymm(0), ymm(12)) }),
        ("vaddps ymm3, ymm3, [r8+32]", [0xC4, 0xC1, 0x64, 0x58, 0x58, 0x20], { a in a.vaddps(ymm(3), ymm(3), .mem(.r8, disp: 32)) }),
        ("vmulps ymm5, ymm6, ymm7", [0xC5, 0xCC, 0x59, 0xEF], { a in a.vmulps(ymm(5), ymm(6), ymm(7)) }),
        ("vmaxps ymm1, ymm14, ymm1", [0xC5, 0x8C, 0x5F, 0xC9], { a in a.vmaxps(ymm(1), ymm(14), ymm(1)) }),
        ("vminps ymm9, ymm15, ymm9", [0xC4, 0x41, 0x04, 0x5D, 0xC9], { a in a.vminps(ymm(9), ymm(15), ymm(9)) }),
        ("vmaxps zmm1, zmm30, zmm1", [0x62, 0xF1, 0x0C, 0x40, 0x5F, 0xC9], { a in a.vmaxps(zmm(1), zmm(30), zmm(1)) }),
        ("vxorps ymm8, ymm8, ymm8", [0xC4, 0x41, 0x3C, 0x57, 0xC0], { a in a.vxorps(ymm(8), ymm(8), ymm(8)) }),
        ("vxorps zmm20, zmm20, zmm20", [0x62, 0xA1, 0x5C, 0x40, 0x57, 0xE4], { a in a.vxorps(zmm(20), zmm(20), zmm(20)) }),
        ("vpaddd ymm0, ymm0, ymm11", [0xC4, 0xC1, 0x7D, 0xFE, 0xC3], { a in a.vpaddd(ymm(0), ymm(0), ymm(11)) }),
        ("vpaddd zmm4, zmm4, [rdx-64]", [0x62, 0xF1, 0x5D, 0x48, 0xFE, 0x62, 0xFF], { a in a.vpaddd(zmm(4), zmm(4), .mem(.rdx, disp: -64)) }),
        ("vpmaddwd ymm11, ymm10, ymm8", [0xC4, 0x41, 0x2D, 0xF5, 0xD8], { a in a.vpmaddwd(ymm(11), ymm(10), ymm(8)) }),
        ("vpmaddwd ymm12, ymm10, [rcx+32]", [0xC5, 0x2D, 0xF5, 0x61, 0x20], { a in a.vpmaddwd(ymm(12), ymm(10), .mem(.rcx, disp: 32)) }),
        ("vpxor ymm2, ymm2, ymm2", [0xC5, 0xED, 0xEF, 0xD2], { a in a.vpxor(ymm(2), ymm(2), ymm(2)) }),
        ("vpdpwssd zmm0, zmm31, [rcx]", [0x62, 0xF2, 0x05, 0x40, 0x52, 0x01], { a in a.vpdpwssd(zmm(0), zmm(31), .mem(.rcx)) }),
        ("vpdpwssd zmm7, zmm16, dword ptr [r9+4]{1to16}", [0x62, 0xD2, 0x7D, 0x50, 0x52, 0x79, 0x01], { a in a.vpdpwssd(zmm(7), zmm(16), .broadcast(.r9, disp: 4)) }),
        ("vpdpbusd zmm15, zmm30, zmm28", [0x62, 0x12, 0x0D, 0x40, 0x50, 0xFC], { a in a.vpdpbusd(zmm(15), zmm(30), zmm(28)) }),
        ("{vex} vpdpbusd ymm1, ymm2, ymm3", [0xC4, 0xE2, 0x6D, 0x50, 0xCB], { a in a.vpdpbusd(ymm(1), ymm(2), ymm(3)) }),
        ("{vex} vpdpwssd ymm4, ymm13, [rcx+64]", [0xC4, 0xE2, 0x15, 0x52, 0x61, 0x40], { a in a.vpdpwssd(ymm(4), ymm(13), .mem(.rcx, disp: 64)) }),
        ("kmovw k1, eax", [0xC5, 0xF8, 0x92, 0xC8], { a in a.kmovw(k(1), .rax) }),
        ("kmovw k3, edx", [0xC5, 0xF8, 0x92, 0xDA], { a in a.kmovw(k(3), .rdx) }),
        ("vpsubd zmm27, zmm20, zmm27", [0x62, 0x01, 0x5D, 0x40, 0xFA, 0xDB], { a in a.vpsubd(zmm(27), zmm(20), .register(zmm(27))) }),
        ("vpsrad zmm27, zmm27, 31", [0x62, 0x91, 0x25, 0x40, 0x72, 0xE3, 0x1F], { a in a.vpsrad(zmm(27), zmm(27), 31) }),
        ("vpaddd zmm3, zmm3, zmm16", [0x62, 0xB1, 0x65, 0x48, 0xFE, 0xD8], { a in a.vpaddd(zmm(3), zmm(3), zmm(16)) }),
        ("mov edx, 0xAAAA", [0xBA, 0xAA, 0xAA, 0x00, 0x00], { a in a.mov(.rdx, 0xAAAA, width: .dword) }),
        ("mov edx, [rdi+136]", [0x8B, 0x97, 0x88, 0x00, 0x00, 0x00], { a in a.mov(.rdx, .mem(.rdi, disp: 136), width: .dword) }),
        ("kmovw k7, r10d", [0xC4, 0xC1, 0x78, 0x92, 0xFA], { a in a.kmovw(k(7), .r10) }),
        ("vpmuludq ymm9, ymm0, ymm8", [0xC4, 0x41, 0x7D, 0xF4, 0xC8], { a in a.vpmuludq(ymm(9), ymm(0), ymm(8)) }),
        ("vpmuludq ymm10, ymm10, ymm11", [0xC4, 0x41, 0x2D, 0xF4, 0xD3], { a in a.vpmuludq(ymm(10), ymm(10), ymm(11)) }),
        ("vpaddq ymm9, ymm9, ymm15", [0xC4, 0x41, 0x35, 0xD4, 0xCF], { a in a.vpaddq(ymm(9), ymm(9), ymm(15)) }),
        ("vpsubd ymm0, ymm0, ymm12", [0xC4, 0xC1, 0x7D, 0xFA, 0xC4], { a in a.vpsubd(ymm(0), ymm(0), ymm(12)) }),
        ("vpand ymm12, ymm0, [rax+32]", [0xC5, 0x7D, 0xDB, 0x60, 0x20], { a in a.vpand(ymm(12), ymm(0), .mem(.rax, disp: 32)) }),
        ("vpcmpgtd ymm12, ymm12, ymm13", [0xC4, 0x41, 0x1D, 0x66, 0xE5], { a in a.vpcmpgtd(ymm(12), ymm(12), ymm(13)) }),
        ("vpmaxsd ymm1, ymm1, [rdi+160]", [0xC4, 0xE2, 0x75, 0x3D, 0x8F, 0xA0, 0x00, 0x00, 0x00], { a in a.vpmaxsd(ymm(1), ymm(1), .mem(.rdi, disp: 160)) }),
        ("vpminsd ymm7, ymm7, [rdi+192]", [0xC4, 0xE2, 0x45, 0x39, 0xBF, 0xC0, 0x00, 0x00, 0x00], { a in a.vpminsd(ymm(7), ymm(7), .mem(.rdi, disp: 192)) }),
        ("vpsravd ymm3, ymm3, [r11+32]", [0xC4, 0xC2, 0x65, 0x46, 0x5B, 0x20], { a in a.vpsravd(ymm(3), ymm(3), .mem(.r11, disp: 32)) }),
        ("vpaddd ymm0, ymm0, [rdi+128]", [0xC5, 0xFD, 0xFE, 0x87, 0x80, 0x00, 0x00, 0x00], { a in a.vpaddd(ymm(0), ymm(0), .mem(.rdi, disp: 128)) }),
        ("vpackssdw ymm8, ymm0, ymm1", [0xC5, 0x7D, 0x6B, 0xC1], { a in a.vpackssdw(ymm(8), ymm(0), ymm(1)) }),
        ("vpackuswb xmm8, xmm8, xmm9", [0xC4, 0x41, 0x39, 0x67, 0xC1], { a in a.vpackuswb(xmm(8), xmm(8), xmm(9)) }),
        ("vpacksswb xmm8, xmm8, xmm9", [0xC4, 0x41, 0x39, 0x63, 0xC1], { a in a.vpacksswb(xmm(8), xmm(8), xmm(9)) }),
        ("vpsrlq ymm10, ymm0, 32", [0xC5, 0xAD, 0x73, 0xD0, 0x20], { a in a.vpsrlq(ymm(10), ymm(0), 32) }),
        ("vpsrlq ymm9, ymm9, 31", [0xC4, 0xC1, 0x35, 0x73, 0xD1, 0x1F], { a in a.vpsrlq(ymm(9), ymm(9), 31) }),
        ("vpsllq ymm10, ymm10, 1", [0xC4, 0xC1, 0x2D, 0x73, 0xF2, 0x01], { a in a.vpsllq(ymm(10), ymm(10), 1) }),
        ("vpsrad ymm12, ymm0, 31", [0xC5, 0x9D, 0x72, 0xE0, 0x1F], { a in a.vpsrad(ymm(12), ymm(0), 31) }),
        ("vpsrad ymm13, ymm11, 1", [0xC4, 0xC1, 0x15, 0x72, 0xE3, 0x01], { a in a.vpsrad(ymm(13), ymm(11), 1) }),
        ("vpblendd ymm0, ymm9, ymm10, 0xAA", [0xC4, 0xC3, 0x35, 0x02, 0xC2, 0xAA], { a in a.vpblendd(ymm(0), ymm(9), ymm(10), 0xAA) }),
        ("vpermq ymm8, ymm8, 0xD8", [0xC4, 0x43, 0xFD, 0x00, 0xC0, 0xD8], { a in a.vpermq(ymm(8), ymm(8), 0xD8) }),
        ("vextracti128 xmm9, ymm8, 1", [0xC4, 0x43, 0x7D, 0x39, 0xC1, 0x01], { a in a.vextracti128(xmm(9), ymm(8), 1) }),
        ("vpbroadcastq ymm15, [rdi+224]", [0xC4, 0x62, 0x7D, 0x59, 0xBF, 0xE0, 0x00, 0x00, 0x00], { a in a.vpbroadcastq(ymm(15), .mem(.rdi, disp: 224)) }),
        ("vmovups [r9], xmm8", [0xC4, 0x41, 0x78, 0x11, 0x01], { a in a.vmovups(.mem(.r9), xmm(8)) }),
        ("vmovups ymm8, [rax+64]", [0xC5, 0x7C, 0x10, 0x40, 0x40], { a in a.vmovups(ymm(8), .mem(.rax, disp: 64)) }),
        ("vcvttps2dq ymm0, [rsi+r11]", [0xC4, 0xA1, 0x7E, 0x5B, 0x04, 0x1E], { a in a.vcvttps2dq(ymm(0), .memory(.mem(.rsi, index: .r11, scale: 1))) }),
        ("vcvttps2dq ymm1, [rsi+r11+32]", [0xC4, 0xA1, 0x7E, 0x5B, 0x4C, 0x1E, 0x20], { a in a.vcvttps2dq(ymm(1), .memory(.mem(.rsi, index: .r11, scale: 1, disp: 32))) }),
        ("vcvttps2dq ymm9, ymm3", [0xC5, 0x7E, 0x5B, 0xCB], { a in a.vcvttps2dq(ymm(9), .register(ymm(3))) }),
        ("vpaddd ymm0, ymm0, [rax+r11+32]", [0xC4, 0xA1, 0x7D, 0xFE, 0x44, 0x18, 0x20], { a in a.vpaddd(ymm(0), ymm(0), .memory(.mem(.rax, index: .r11, scale: 1, disp: 32))) }),
        ("vmovups [rdx+rbx], xmm8", [0xC5, 0x78, 0x11, 0x04, 0x1A], { a in a.vmovups(.mem(.rdx, index: .rbx, scale: 1), xmm(8)) }),
        ("add rsi, [rdi+32]", [0x48, 0x03, 0x77, 0x20], { a in a.add(.rsi, .mem(.rdi, disp: 32)) }),
        ("add r12, [r13]", [0x4D, 0x03, 0x65, 0x00], { a in a.add(.r12, .mem(.r13)) }),
        // The AVX-512 requantizing epilogue (EVEX: W1 for 64-bit lanes, opmask compares and blends, narrowing store).
        ("vpmuldq zmm18, zmm3, zmm19", [0x62, 0xA2, 0xE5, 0x48, 0x28, 0xD3], { a in a.vpmuldq(zmm(18), zmm(3), zmm(19)) }),
        ("vpmuldq zmm20, zmm20, zmm21", [0x62, 0xA2, 0xDD, 0x40, 0x28, 0xE5], { a in a.vpmuldq(zmm(20), zmm(20), zmm(21)) }),
        ("vpsrlq zmm20, zmm3, 32", [0x62, 0xF1, 0xDD, 0x40, 0x73, 0xD3, 0x20], { a in a.vpsrlq(zmm(20), zmm(3), 32) }),
        ("vpsllq zmm21, zmm21, 1", [0x62, 0xB1, 0xD5, 0x40, 0x73, 0xF5, 0x01], { a in a.vpsllq(zmm(21), zmm(21), 1) }),
        ("vpaddq zmm18, zmm18, zmm22", [0x62, 0xA1, 0xED, 0x40, 0xD4, 0xD6], { a in a.vpaddq(zmm(18), zmm(18), zmm(22)) }),
        ("vpbroadcastq zmm22, [rdi+96]", [0x62, 0xE2, 0xFD, 0x48, 0x59, 0x77, 0x0C], { a in a.vpbroadcastq(zmm(22), .mem(.rdi, disp: 96)) }),
        ("vpblendmd zmm3{k3}, zmm18, zmm21", [0x62, 0xB2, 0x6D, 0x43, 0x64, 0xDD], { a in a.vpblendmd(zmm(3), zmm(18), zmm(21), mask: k(3)) }),
        ("vpmovdb [r8]{k1}, zmm3", [0x62, 0xD2, 0x7E, 0x49, 0x31, 0x18], { a in a.vpmovdb(.mem(.r8), zmm(3), mask: k(1)) }),
        ("vpmovdb [r8+rcx+16], zmm12", [0x62, 0x52, 0x7E, 0x48, 0x31, 0x64, 0x08, 0x01], { a in a.vpmovdb(.mem(.r8, index: .rcx, scale: 1, disp: 16), zmm(12)) }),
        ("vpandd zmm23, zmm3, zmm24", [0x62, 0x81, 0x65, 0x48, 0xDB, 0xF8], { a in a.vpand(zmm(23), zmm(3), zmm(24)) }),
        ("vpsrad zmm24, zmm3, 31", [0x62, 0xF1, 0x3D, 0x40, 0x72, 0xE3, 0x1F], { a in a.vpsrad(zmm(24), zmm(3), 31) }),
        ("vpsravd zmm3, zmm3, [rax+64]", [0x62, 0xF2, 0x65, 0x48, 0x46, 0x58, 0x01], { a in a.vpsravd(zmm(3), zmm(3), .mem(.rax, disp: 64)) }),
        ("vpmaxsd zmm3, zmm3, zmm26", [0x62, 0x92, 0x65, 0x48, 0x3D, 0xDA], { a in a.vpmaxsd(zmm(3), zmm(3), .register(zmm(26))) }),
        ("vpminsd zmm3, zmm3, zmm27", [0x62, 0x92, 0x65, 0x48, 0x39, 0xDB], { a in a.vpminsd(zmm(3), zmm(3), .register(zmm(27))) }),
        ("vpaddd zmm3, zmm3, [r9+12]{1to16}", [0x62, 0xD1, 0x65, 0x58, 0xFE, 0x59, 0x03], { a in a.vpaddd(zmm(3), zmm(3), .broadcast(.r9, disp: 12)) }),
        ("vpbroadcastd zmm26, [rdi+104]", [0x62, 0x62, 0x7D, 0x48, 0x58, 0x57, 0x1A], { a in a.vpbroadcastd(zmm(26), .mem(.rdi, disp: 104)) }),
        ("vpdpbusd zmm1, zmm18, zmm17", [0x62, 0xB2, 0x6D, 0x40, 0x50, 0xC9], { a in a.vpdpbusd(zmm(1), zmm(18), zmm(17)) }),
        ("vpdpbusd zmm1, zmm17, [rbx+r15]{1to16}", [0x62, 0xB2, 0x75, 0x50, 0x50, 0x0C, 0x3B], { a in a.vpdpbusd(zmm(1), zmm(17), .memory(MemoryOperand(base: .rbx, index: .r15, broadcast: true))) }),
        ("vpxord zmm0, zmm0, zmm0", [0x62, 0xF1, 0x7D, 0x48, 0xEF, 0xC0], { a in a.vpxor(zmm(0), zmm(0), zmm(0)) }),
        ("vmovups zmm17, [r10+rcx]", [0x62, 0xC1, 0x7C, 0x48, 0x10, 0x0C, 0x0A], { a in a.vmovups(zmm(17), .mem(.r10, index: .rcx, scale: 1)) }),
        ("vmovups [r8+64], zmm15", [0x62, 0x51, 0x7C, 0x48, 0x11, 0x78, 0x01], { a in a.vmovups(.mem(.r8, disp: 64), zmm(15)) }),
        ("vmovdqu32-as-vmovups zmm24{k1}{z}, [rax+64]", [0x62, 0x61, 0x7C, 0xC9, 0x10, 0x40, 0x01], { a in a.vmovups(zmm(24), .mem(.rax, disp: 64), mask: k(1), zeroing: true) }),
    ]

    func testEveryFormMatchesTheReferenceAssembler() throws {
        for c in Self.cases {
            var a = Assembler()
            c.emit(&a)
            XCTAssertEqual(try a.finish(), c.bytes, c.asm)
        }
    }

    func testPrefersEVEXEncodesVNNIOnYMMAsAVX512() throws {
        // Ice Lake has AVX512-VNNI on ymm but no AVX-VNNI: its kernels must use the EVEX form
        // (`vpdpbusd ymm1, ymm2, ymm3` as `as` encodes it without {vex}).
        var a = Assembler()
        a.prefersEVEX = true
        a.vpdpbusd(ymm(1), ymm(2), ymm(3))
        XCTAssertEqual(try a.finish(), [0x62, 0xF2, 0x6D, 0x28, 0x50, 0xCB])
    }

    func testJumpsResolveForwardAndBackward() throws {
        var a = Assembler()
        let top = a.newLabel(), end = a.newLabel()
        a.bind(top)
        a.dec(.rcx)                 // 48 FF C9
        a.j(.equal, end)            // 0F 84 rel32 → +5 (over the jmp)
        a.jmp(top)                  // E9 rel32 → back to 0
        a.bind(end)
        a.ret()
        XCTAssertEqual(try a.finish(), [0x48, 0xFF, 0xC9, 0x0F, 0x84, 0x05, 0x00, 0x00, 0x00,
                                        0xE9, 0xF2, 0xFF, 0xFF, 0xFF, 0xC3])
    }

    func testUnboundLabelIsAnError() {
        var a = Assembler()
        let nowhere = a.newLabel()
        a.jmp(nowhere)
        XCTAssertThrowsError(try a.finish()) { XCTAssertEqual($0 as? Assembler.AssemblyError, .unboundLabel(0)) }
    }
}
