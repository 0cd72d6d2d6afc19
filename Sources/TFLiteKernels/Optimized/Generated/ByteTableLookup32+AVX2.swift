import MachineCode

/// The generated 256-entry byte table lookup (`ByteTableLookup`) for CPUs without AVX512-VBMI,
/// 32 bytes per step with AVX2 byte shuffles: the table is cut into 16 rows of 16 entries, each
/// in both 128-bit lanes of a ymm register (rows 0–9 stay in registers, rows 10–15 are
/// broadcast from memory as they are needed). For row k, `(x − 16k) +sat 0x70` keeps the low
/// nibble as the shuffle index where x's high nibble is k and sets the top bit (the shuffle
/// writes zero) elsewhere, so OR-ing the 16 `vpshufb` gives `table[x]`: four instructions per
/// row, 64 per 32 bytes, where the portable loop reads the table 32 times.
///
/// C signature (System V): `(arguments)`, a pointer to `GeneratedByteTableArguments`. It maps
/// the first `count / 32 · 32` bytes and leaves the rest.
enum ByteTableLookup32AVX2 {
    typealias Function = @convention(c) (UnsafeRawPointer) -> Void

    /// Bytes mapped per step.
    static let lanes = 32
    /// Rows kept in ymm6…ymm15.
    private static let residentRows = 10

    static func emit(into a: inout Assembler) {
        typealias Block = GeneratedByteTableArguments
        let (source, destination, steps, table) = (Block.source, Block.destination, Block.steps, Block.table)
        let constant = GeneralRegister.r8
        let shifted = ymm(0), index = ymm(1), result = ymm(2), loadedRow = ymm(3), sixteen = ymm(4), bias = ymm(5)
        func row(_ k: Int) -> VectorRegister { ymm(6 + k) }
        a.function(saving: []) { a, done in
            Block.emitLoad(stepBytes: lanes, done: done, into: &a)
            for k in 0..<residentRows { a.vbroadcasti128(row(k), .mem(table, disp: Int32(16 * k))) }
            a.mov(constant, 0x1010_1010, width: .dword)
            a.vmovd(xmm(4), constant)
            a.vpbroadcastd(sixteen, xmm(4))
            a.mov(constant, 0x7070_7070, width: .dword)
            a.vmovd(xmm(5), constant)
            a.vpbroadcastd(bias, xmm(5))
            a.countedLoop(steps, advancing: [(source, .bytes(32)), (destination, .bytes(32))]) { a in
                a.vmovups(shifted, .mem(source))
                a.vpaddusb(index, shifted, bias)
                a.vpshufb(result, row(0), index)
                for k in 1..<16 {
                    a.vpsubb(shifted, shifted, sixteen)
                    a.vpaddusb(index, shifted, bias)
                    var rowRegister = loadedRow
                    if k < residentRows { rowRegister = row(k) } else { a.vbroadcasti128(loadedRow, .mem(table, disp: Int32(16 * k))) }
                    a.vpshufb(index, rowRegister, index)
                    a.vpor(result, result, index)
                }
                a.vmovups(.mem(destination), result)
            }
        }
    }
}
