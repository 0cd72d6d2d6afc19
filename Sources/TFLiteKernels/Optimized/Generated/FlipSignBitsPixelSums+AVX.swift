import MachineCode

/// The generated activation copy of the uint8-weight quads (`Int8QuadPacking.convert` with
/// pixel sums): each uint8 `x` stored as the signed `x − 128` (`x ^ 0x80`), and each pixel's
/// `Σ (x − 128)` (`QuantizedGEMMWindowSums.pixelSums`) from `vpsadbw` against zero, whose 64-bit
/// lanes sum eight bytes each. A pixel is its whole vectors (ymm at AVX2, zmm at AVX-512), then
/// a 32-byte part (zmm only) and a 16-byte part as its depth has them; its lane sums are folded
/// to one 64-bit sum as the parts narrow, and the low 32 bits of that sum plus `offset`
/// (`−128 · depth`) are stored. Where the default build's Swift loop does 16 bytes per step and
/// a horizontal sum per pixel in SSE2, this does 32 or 64 and one fold.
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedPixelSumArguments`.
enum FlipSignBitsPixelSumsAVX {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Void

    static func emit(width: VectorRegister.Width, into a: inout Assembler) {
        precondition(width == .ymm || width == .zmm, "ymm (AVX2) or zmm (AVX-512) vectors")
        typealias Field = GeneratedPixelSumArguments.Field
        let args = GeneralRegister.rdi
        let source = GeneralRegister.rsi, destination = GeneralRegister.rdx, pixels = GeneralRegister.r8
        let sums = GeneralRegister.r9, vectors = GeneralRegister.r10, tail = GeneralRegister.r11
        let counter = GeneralRegister.rcx
        let pattern = 4, zero = 5, offset = xmm(6), total = 2
        a.function(saving: []) { a, done in
            a.mov(pixels, .mem(args, disp: Field.pixels))
            a.test(pixels, pixels)
            a.j(.equal, done)
            a.mov(source, .mem(args, disp: Field.source))
            a.mov(destination, .mem(args, disp: Field.destination))
            a.mov(vectors, .mem(args, disp: Field.vectorsPerPixel))
            a.mov(tail, .mem(args, disp: Field.tailBytes))
            a.mov(sums, .mem(args, disp: Field.sums))
            a.mov(.rax, Int32(bitPattern: 0x8080_8080))
            a.vmovd(xmm(pattern), .rax)
            a.vpbroadcastd(VectorRegister(pattern, width), xmm(pattern))
            a.vpxor(xmm(zero), xmm(zero), xmm(zero))               // clears the whole register
            a.mov(.rax, .mem(args, disp: Field.offset), width: .dword)
            a.vmovd(offset, .rax)

            /// One part of `w` bytes: its lane sums added to `total`, its bytes flipped and stored.
            func part(_ w: VectorRegister.Width) {
                let v = { (i: Int) in VectorRegister(i, w) }
                a.vmovups(v(0), .mem(source))
                a.vpsadbw(v(1), v(0), v(zero))
                a.vpaddq(v(total), v(total), v(1))
                a.vpxor(v(0), v(0), v(pattern))
                a.vmovups(.mem(destination), v(0))
                a.add(source, Int32(w.bytes))
                a.add(destination, Int32(w.bytes))
            }
            /// Folds `total`'s upper half (of width `w`) onto its lower half.
            func fold(from w: VectorRegister.Width) {
                let half: VectorRegister.Width = w == .zmm ? .ymm : .xmm
                if w == .zmm { a.vextracti64x4(ymm(1), zmm(total), 1) } else { a.vextracti128(xmm(1), ymm(total), 1) }
                a.vpaddq(VectorRegister(total, half), VectorRegister(total, half), VectorRegister(1, half))
            }
            /// The part of `w` bytes when `tail` has that bit.
            func tailPart(_ w: VectorRegister.Width) {
                let skip = a.newLabel()
                a.test(tail, Int32(w.bytes))
                a.j(.equal, skip)
                part(w)
                a.bind(skip)
            }

            let pixel = a.newLabel(), vectorLoop = a.newLabel(), vectorsDone = a.newLabel()
            a.bind(pixel)
            a.vpxor(xmm(total), xmm(total), xmm(total))
            a.mov(counter, vectors)
            a.test(counter, counter)
            a.j(.equal, vectorsDone)
            a.bind(vectorLoop)
            part(width)
            a.dec(counter)
            a.j(.notEqual, vectorLoop)
            a.bind(vectorsDone)
            if width == .zmm {
                fold(from: .zmm)
                tailPart(.ymm)
            }
            fold(from: .ymm)
            tailPart(.xmm)
            a.vpshufd(xmm(1), xmm(total), 0xEE)
            a.vpaddq(xmm(total), xmm(total), xmm(1))
            a.vpaddd(xmm(total), xmm(total), .register(offset))
            a.vmovd(.mem(sums), xmm(total))
            a.add(sums, 4)
            a.dec(pixels)
            a.j(.notEqual, pixel)
        }
    }
}

/// The argument block of `FlipSignBitsPixelSumsAVX`, laid out as the generated code reads it:
/// `pixels` pixels of `vectorsPerPixel · vector bytes + tailBytes` bytes each, one after the
/// other at `source` and at `destination`, one Int32 sum per pixel at `sums`.
struct GeneratedPixelSumArguments {
    var source: UnsafeRawPointer
    var destination: UnsafeMutableRawPointer
    var pixels: Int
    var vectorsPerPixel: Int
    /// The bytes of a pixel after its whole vectors: 0 or 16 (ymm); 0, 16, 32 or 48 (zmm).
    var tailBytes: Int
    var sums: UnsafeMutablePointer<Int32>
    /// Added to each pixel's byte sum: `−128 · depth`.
    var offset: Int32

    /// Byte offsets of the fields (checked against `MemoryLayout` by the kernel tests).
    enum Field {
        static let source: Int32 = 0, destination: Int32 = 8, pixels: Int32 = 16, vectorsPerPixel: Int32 = 24
        static let tailBytes: Int32 = 32, sums: Int32 = 40, offset: Int32 = 48
    }

    /// The contract of `FlipSignBitsPixelSumsAVX` with vectors of `vectorBytes` (32 or 64), as
    /// far as the block shows it:
    /// - `pixels ≥ 0`, `vectorsPerPixel ≥ 0` (the loops count them down to zero);
    /// - `tailBytes` a multiple of 16 below `vectorBytes` (the parts the kernel has);
    /// - the source and destination bytes of all pixels do not overlap (a pixel's parts are
    ///   stored as they are read, but the sums read the source only).
    ///
    /// The kernel relies on no alignment. What the block cannot show — the bytes readable at
    /// `source`, writable at `destination`, `pixels` sums writable at `sums` — is the caller's.
    /// - Returns: nil when the contract holds, else what is broken.
    func violation(vectorBytes: Int) -> String? {
        if pixels < 0 || vectorsPerPixel < 0 {
            return "generated pixel sums: \(pixels) pixels of \(vectorsPerPixel) vectors: neither may be negative"
        }
        if tailBytes < 0 || tailBytes % 16 != 0 || tailBytes >= vectorBytes {
            return "generated pixel sums: tail of \(tailBytes) bytes (a multiple of 16 below \(vectorBytes))"
        }
        let bytes = pixels * (vectorsPerPixel * vectorBytes + tailBytes)
        if KernelPrecondition.overlap(source, bytes, UnsafeRawPointer(destination), bytes) {
            return "generated pixel sums: source and destination overlap over \(bytes) bytes"
        }
        return nil
    }
}
