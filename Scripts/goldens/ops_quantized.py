"""Golden cases for quantized DIV (uint8, int8, int16) and quantized RSQRT (int8), from the
reference runtime's reference kernels, on adversarial inputs: every pair of codes (exact
halves included), divisors one code from their zero point, a raw divisor code 0 (valid when
the zero point is not 0), zero points at the extremes, large and small scale ratios,
broadcasting and fused activations.

A divisor code equal to the divisor's zero point (a real 0) makes the reference fail at invoke
(`CheckNonZero` compares with the zero point), and an RSQRT input below its zero point too;
such inputs cannot have a golden output and are tested in Swift instead.
Run: PYTHON=... Scripts/generate-goldens.sh ops_quantized
"""
import numpy as np

import common
from ops_elementwise import NP, full_range, q, single_op_model

FAMILY = "quantized"


def every_pair(dt, divisor_zero_point):
    """Dividend and divisor arrays holding every pair of codes of `dt` (the divisor's zero point left out)."""
    info = np.iinfo(NP[dt])
    codes = np.arange(info.min, info.max + 1)
    divisors = codes[codes != divisor_zero_point]
    a, b = np.meshgrid(codes, divisors, indexing="ij")
    return a.reshape(1, -1).astype(NP[dt]), b.reshape(1, -1).astype(NP[dt])


def avoiding(x, zero_point):
    """`x` with every code equal to `zero_point` moved one code away from it."""
    x = x.copy()
    info = np.iinfo(x.dtype)
    x[x == zero_point] = zero_point + 1 if zero_point < info.max else zero_point - 1
    return x


def div_model(dt, shape_a, shape_b, shape_y, qa, qb, qy, activation=0):
    tensors = [q("a", dt, shape_a, *qa), q("b", dt, shape_b, *qb), q("y", dt, shape_y, *qy)]
    return single_op_model("DIV", tensors, [0, 1], [2], ("DivOptions", {"FusedActivationFunction": activation}))


def div_cases(rng):
    cases = []
    # Every pair of 8-bit codes: exact halves, zero-valued divisors (code == zero point), extremes.
    for dt, qa, qb, qy in (("uint8", (0.05, 128), (0.02, 131), (0.1, 120)),
                           ("int8", (0.03, -5), (0.011, 7), (0.2, 3))):
        a, b = every_pair(dt, qb[1])
        shape = list(a.shape)
        cases.append((f"div_{dt}_every_pair", div_model(dt, shape, shape, shape, qa, qb, qy), [a, b], "exact",
                      f"DIV {dt}: every dividend code against every nonzero divisor code"))
    # Zero points at the extremes, scale ratios far from one, fused activations, broadcasting.
    for dt in ("uint8", "int8"):
        info = np.iinfo(NP[dt])
        lo, hi = int(info.min), int(info.max)
        settings = (
            ("zp_extremes", (0.02, lo), (0.05, hi), (0.01, lo), 0),
            ("zp_extremes_flipped", (0.02, hi), (0.05, lo), (0.01, hi), 0),
            ("large_ratio", (0.5, lo + 100), (0.001, lo + 90), (0.25, lo + 128), 0),
            ("small_ratio", (0.001, lo + 128), (0.9, lo + 128), (0.0004, lo + 10), 0),
            ("relu", (0.04, lo + 120), (0.03, lo + 130), (0.05, lo + 128), 1),
            ("relu6", (0.04, lo + 128), (0.01, lo + 125), (0.03, lo), 3),
            ("relu_n1_to_1", (0.02, lo + 128), (0.02, lo + 128), (0.01, lo + 128), 2),
        )
        for name, qa, qb, qy, act in settings:
            a = full_range(rng, dt, [3, 40])
            b = avoiding(full_range(rng, dt, [3, 40]), qb[1])
            # Divisors one code from a real 0, and a raw code 0 where that is not the zero point.
            b.reshape(-1)[:3] = [max(lo, qb[1] - 1), min(hi, qb[1] + 1), 0 if qb[1] != 0 else 1]
            b = avoiding(b, qb[1])
            cases.append((f"div_{dt}_{name}", div_model(dt, [3, 40], [3, 40], [3, 40], qa, qb, qy, act),
                          [a, b], "exact", f"DIV {dt} {name}"))
        # Broadcast divisor (one per channel) and a scalar divisor.
        a = full_range(rng, dt, [2, 4, 3, 5])
        b = avoiding(full_range(rng, dt, [5]), lo + 120)
        cases.append((f"div_{dt}_broadcast", div_model(dt, [2, 4, 3, 5], [5], [2, 4, 3, 5], (0.03, lo + 128),
                                                       (0.04, lo + 120), (0.06, lo + 130)),
                      [a, b], "exact", f"DIV {dt} broadcast over the last axis"))
        s = np.array(lo + 140, dtype=NP[dt])
        cases.append((f"div_{dt}_scalar_divisor", div_model(dt, [3, 7], [], [3, 7], (0.03, lo + 128),
                                                            (0.04, lo + 128), (0.02, lo + 128)),
                      [full_range(rng, dt, [3, 7]), s], "exact", f"DIV {dt} by a rank-0 divisor"))
    # int16: symmetric (the 16x8 convention) and with zero points; large magnitudes.
    for name, qa, qb, qy in (("symmetric", (0.001, 0), (0.0005, 0), (0.002, 0)),
                             ("zero_points", (0.002, 100), (0.001, -300), (0.004, 50)),
                             ("tiny_output_scale", (0.01, 0), (0.01, 0), (0.00005, 0))):
        a = full_range(rng, "int16", [4, 64])
        z = qb[1]
        b = avoiding(full_range(rng, "int16", [4, 64]), z)
        b.reshape(-1)[:8] = np.array([z + 1, z - 1, z + 2, z - 2, z + 3, z - 3, 32767, -32768], dtype=np.int16)
        a.reshape(-1)[:8] = np.array([1, 1, 1, 1, -32768, 32767, 1, 1], dtype=np.int16)
        cases.append((f"div_int16_{name}", div_model("int16", [4, 64], [4, 64], [4, 64], qa, qb, qy),
                      [a, b], "exact", f"DIV int16 {name}"))
    return cases


def rsqrt_cases(rng):
    cases = []
    # Every valid code (≥ zero point) for several zero points and scale pairs.
    for izp, iscale, ozp, oscale in ((-128, 0.05, -128, 0.02), (0, 0.01, -100, 0.1), (100, 0.2, 0, 0.005),
                                     (-128, 1.5, 127, 0.001), (127, 0.3, -128, 0.5), (-20, 0.0001, -128, 1.0)):
        x = np.arange(izp, 128).astype(np.int8)
        n = x.size
        tensors = [q("x", "int8", [1, n], iscale, izp), q("y", "int8", [1, n], oscale, ozp)]
        model = single_op_model("RSQRT", tensors, [0], [1])
        cases.append((f"rsqrt_int8_zp{izp}_s{iscale}", model, [x.reshape(1, n)], "exact",
                      f"RSQRT int8 every code from the zero point {izp} up"))
    return cases


def main():
    common.clear_family(FAMILY)
    rng = np.random.default_rng(1313)
    for name, model, inputs, tol, desc in div_cases(rng) + rsqrt_cases(rng):
        common.save_case(FAMILY, name, model, inputs, tolerance=tol, description=desc)
        print("  ", name)


if __name__ == "__main__":
    main()
