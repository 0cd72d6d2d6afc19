// Single- and double-precision libm functions used by the elementwise kernels. The
// reference runtime calls the C library; calling the same functions keeps lookup tables
// built from them (quantized LOGISTIC / TANH) identical.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Float math as the C library computes it.
enum ElementwiseMath {
    @inline(__always) static func exp(_ x: Float) -> Float { expf(x) }
    @inline(__always) static func log(_ x: Float) -> Float { logf(x) }
    @inline(__always) static func tanh(_ x: Float) -> Float { tanhf(x) }
    @inline(__always) static func pow(_ x: Float, _ y: Float) -> Float { powf(x, y) }
    @inline(__always) static func sin(_ x: Float) -> Float { sinf(x) }
    @inline(__always) static func cos(_ x: Float) -> Float { cosf(x) }
    @inline(__always) static func atan2(_ y: Float, _ x: Float) -> Float { atan2f(y, x) }
    @inline(__always) static func expm1(_ x: Float) -> Float { expm1f(x) }
    @inline(__always) static func fmod(_ x: Float, _ y: Float) -> Float { fmodf(x, y) }
    @inline(__always) static func exp(_ x: Double) -> Double { libmExp(x) }
    @inline(__always) static func pow(_ x: Double, _ y: Double) -> Double { libmPow(x, y) }
    @inline(__always) static func tanh(_ x: Double) -> Double { libmTanh(x) }
}

@inline(__always) private func libmExp(_ x: Double) -> Double { exp(x) }
@inline(__always) private func libmPow(_ x: Double, _ y: Double) -> Double { pow(x, y) }
@inline(__always) private func libmTanh(_ x: Double) -> Double { tanh(x) }

/// `x` truncated toward zero to Int32, saturating at the ends (NaN → 0), so float-to-int
/// conversions in kernels never trap.
@inline(__always)
func saturatingInt32(_ x: Float) -> Int32 {
    if x.isNaN { return 0 }
    if x >= 2147483648 { return Int32.max }
    if x <= -2147483648 { return Int32.min }
    return Int32(x)
}
