import MachineCode

/// The loop structure every generated convolution tile shares: an outer loop over filter taps
/// (each tap one row of the pixel-pointer table) and an inner loop over the input's depth,
/// one 4-byte step (a float, an int16 pair or a byte quad per pixel) at a time.
extension Assembler {
    /// Closes the inner depth loop and the outer tap loop: advances `weights` by `weightBytes`
    /// and `offset` by 4, repeats from `step` while `offset < end`; then advances `table` by
    /// `tableBytes` (one tap's pixel pointers), decrements `taps` and repeats from `tap` until it
    /// reaches zero.
    mutating func closeTapLoops(weights: GeneralRegister, weightBytes: Int32, offset: GeneralRegister,
                                end: GeneralRegister, step: Label, table: GeneralRegister, tableBytes: Int32,
                                taps: GeneralRegister, tap: Label) {
        closeDepthLoop(weights: weights, weightBytes: weightBytes, offset: offset, end: end, step: step)
        add(table, tableBytes)
        dec(taps)
        j(.notEqual, tap)
    }

    /// Closes the inner depth loop alone (a tile with one tap): advances `weights` by
    /// `weightBytes` and `offset` by 4, and repeats from `step` while `offset < end`.
    mutating func closeDepthLoop(weights: GeneralRegister, weightBytes: Int32, offset: GeneralRegister,
                                 end: GeneralRegister, step: Label) {
        add(weights, weightBytes)
        add(offset, 4)
        cmp(offset, end)
        j(.below, step)
    }
}
