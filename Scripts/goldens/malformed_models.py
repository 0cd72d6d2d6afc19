"""Hand-made malformed models that the loader's structural checks cannot reject, for tests
that the interpreter rejects them with a typed error instead of reading out of bounds.
Writes Tests/Fixtures/malformed/*.tflite."""
import os

import numpy as np

from common import ROOT
from single_op_model import T, build

DENSIFY = 124
OUT = os.path.join(ROOT, "Tests", "Fixtures", "malformed")


def main():
    os.makedirs(OUT, exist_ok=True)
    # CSR metadata that stores 5 values over a buffer holding 2.
    rows = ([0, 1], [], [("dense", 3), ("csr", [0, 2, 2, 5], [1, 4, 0, 2, 5], "uint16")])
    model = build(DENSIFY, [T([3, 6], np.int8, quant=(0.1, 0), data=np.array([7, -8], np.int8), sparsity=rows)],
                  [T([3, 6], np.int8, quant=(0.1, 0))])
    with open(os.path.join(OUT, "densify_short_sparse_buffer.tflite"), "wb") as f:
        f.write(model)
    print("  densify_short_sparse_buffer.tflite")


if __name__ == "__main__":
    main()
