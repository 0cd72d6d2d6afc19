import MachineCode

/// The generated end of a float depthwise output row: `dst = clamp(sums + bias)` per pixel and
/// channel, the `DepthwiseFloatEpilogue.finish` contract (bias added after the sums, clamp as
/// `FloatConvEpilogue.clamp`: `x < min ? min : x`, then `x > max ? max : x`, NaN passing through).
/// Channels go 16 per zmm (AVX-512; the last, partial block under opmask k1 from `laneMask`) or
/// 8 per ymm (AVX2, whole blocks only: the caller keeps channel counts that are not a multiple
/// of 8 in Swift). One instruction per step where the default build's SSE2 Swift needs four.
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedDepthwiseFinishArguments`.
/// Preconditions: `pixels ≥ 0`; `fullBlockBytes` = the channel bytes rounded down to whole
/// blocks (equal to `channelBytes` for ymm); `bias` nil or `channels` floats; `sums` and `dst`
/// hold `pixels · channels` floats (they may be the same row).
enum DepthwiseFloatFinish16AVX {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Void

    static func emit(width: VectorRegister.Width, into a: inout Assembler) {
        precondition(width != .xmm, "ymm or zmm")
        func v(_ n: Int) -> VectorRegister { VectorRegister(n, width) }
        let blockBytes: Int32 = width == .zmm ? 64 : 32
        typealias Field = GeneratedDepthwiseFinishArguments.Field
        let args = GeneralRegister.rdi
        let sums = GeneralRegister.rsi, dst = GeneralRegister.r11, pixels = GeneralRegister.rdx
        let channelBytes = GeneralRegister.rcx, bias = GeneralRegister.r8, offset = GeneralRegister.r9
        let fullBytes = GeneralRegister.r10
        let masked = width == .zmm
        a.function(saving: []) { a, done in
            a.mov(sums, .mem(args, disp: Field.sums))
            a.mov(dst, .mem(args, disp: Field.dst))
            a.mov(pixels, .mem(args, disp: Field.pixels))
            a.mov(channelBytes, .mem(args, disp: Field.channelBytes))
            a.mov(fullBytes, .mem(args, disp: Field.fullBlockBytes))
            a.mov(bias, .mem(args, disp: Field.bias))
            a.vbroadcastss(v(14), .mem(args, disp: Field.activationMin))
            a.vbroadcastss(v(15), .mem(args, disp: Field.activationMax))
            if masked {
                a.mov(.rax, .mem(args, disp: Field.laneMask))
                a.kmovw(k(1), .rax)
            }
            /// `v0 = clamp(v0 + v1)` when `withBias`, else `clamp(v0)`.
            func finish(withBias: Bool) {
                if withBias { a.vaddps(v(0), v(0), v(1)) }
                a.vmaxps(v(0), v(14), v(0))                   // x < min ? min : x
                a.vminps(v(0), v(15), v(0))                   // x > max ? max : x
            }
            /// The pixel loop, with or without a bias.
            func rows(withBias: Bool) {
                let pixelLoop = a.newLabel(), blockLoop = a.newLabel(), tail = a.newLabel(), nextPixel = a.newLabel()
                a.bind(pixelLoop)
                a.test(pixels, pixels)
                a.j(.equal, done)
                a.xor(offset, offset, width: .dword)
                a.bind(blockLoop)
                a.cmp(offset, fullBytes)
                a.j(.greaterOrEqual, tail)
                a.vmovups(v(0), .mem(sums, index: offset, scale: 1))
                if withBias { a.vmovups(v(1), .mem(bias, index: offset, scale: 1)) }
                finish(withBias: withBias)
                a.vmovups(.mem(dst, index: offset, scale: 1), v(0))
                a.add(offset, blockBytes)
                a.jmp(blockLoop)
                a.bind(tail)
                if masked {
                    a.cmp(offset, channelBytes)
                    a.j(.greaterOrEqual, nextPixel)
                    a.vmovups(v(0), .mem(sums, index: offset, scale: 1), mask: k(1), zeroing: true)
                    if withBias { a.vmovups(v(1), .mem(bias, index: offset, scale: 1), mask: k(1), zeroing: true) }
                    finish(withBias: withBias)
                    a.vmovups(.mem(dst, index: offset, scale: 1), v(0), mask: k(1))
                }
                a.bind(nextPixel)
                a.add(sums, channelBytes)
                a.add(dst, channelBytes)
                a.dec(pixels)
                a.jmp(pixelLoop)
            }
            let noBias = a.newLabel()
            a.test(bias, bias)
            a.j(.equal, noBias)
            rows(withBias: true)
            a.bind(noBias)
            rows(withBias: false)
        }
    }
}

/// The argument block of `DepthwiseFloatFinish16AVX`, laid out as the generated code reads it.
struct GeneratedDepthwiseFinishArguments {
    var sums: UnsafeRawPointer
    var dst: UnsafeMutableRawPointer
    var pixels: Int
    var channelBytes: Int
    var fullBlockBytes: Int
    var bias: UnsafeRawPointer?
    var activationMin: Float
    var activationMax: Float
    /// The channels of the last, partial block (bit i: channel i), read by the AVX-512 form only.
    var laneMask: Int

    /// Byte offsets of the fields (checked against `MemoryLayout` by the kernel tests).
    enum Field {
        static let sums: Int32 = 0, dst: Int32 = 8, pixels: Int32 = 16, channelBytes: Int32 = 24
        static let fullBlockBytes: Int32 = 32, bias: Int32 = 40, activationMin: Int32 = 48, activationMax: Int32 = 52
        static let laneMask: Int32 = 56
    }
}

extension GeneratedDepthwiseFinishArguments {
    /// The contract of `DepthwiseFloatFinish16AVX`, as far as the block shows it:
    /// - `pixels ≥ 0`; `channelBytes` a positive multiple of 4;
    /// - the form that does not mask channels (`masksChannels` false, ymm) needs the channel
    ///   count a multiple of 8 (its 8-float vector) and `fullBlockBytes = channelBytes`; the
    ///   masking form (zmm) needs `fullBlockBytes` = the channel bytes rounded down to whole
    ///   16-channel blocks and `laneMask` = the channels of the last, partial block;
    /// - `activationMin ≤ activationMax`.
    ///
    /// The kernel relies on no alignment (unaligned loads and stores). `pixels · channels` floats
    /// at `sums` and `dst` (the same row or not overlapping) and `channels` bias floats are the
    /// caller's.
    /// - Returns: nil when the contract holds, else what is broken.
    func violation(masksChannels: Bool) -> String? {
        if pixels < 0 { return "generated depthwise finish: pixels \(pixels) < 0" }
        if channelBytes < 4 || channelBytes % 4 != 0 {
            return "generated depthwise finish: channel bytes \(channelBytes) is not a positive multiple of 4"
        }
        let channels = channelBytes / 4
        if masksChannels {
            if fullBlockBytes != channels / 16 * 64 || laneMask != (1 << (channels % 16)) - 1 {
                return "generated depthwise finish: full block bytes \(fullBlockBytes), lane mask \(laneMask) for \(channels) channels"
            }
        } else if channels % 8 != 0 || fullBlockBytes != channelBytes {
            return "generated depthwise finish: \(channels) channels, full block bytes \(fullBlockBytes): the unmasked form needs a multiple of 8 channels, all in full blocks"
        }
        if activationMin > activationMax {
            return "generated depthwise finish: activation range \(activationMin)...\(activationMax) is empty"
        }
        return nil
    }
}
