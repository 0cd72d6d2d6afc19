"""Writes FlexBuffer fixtures with the reference python `flatbuffers.flexbuffers` builder,
for FlatBufferReaderTests. The expected values are the inputs below.

Run (python3 with numpy and tflite; Scripts/generate-goldens.sh runs it): python3 Tests/Fixtures/schema/make_flexbuffer_fixtures.py
"""
import os
from flatbuffers import flexbuffers as fx

HERE = os.path.dirname(__file__)


def sample():
    b = fx.Builder()
    with b.Map():
        b.Key("small"); b.Int(-5)              # width 1
        b.Key("medium"); b.Int(-30000)         # width 2
        b.Key("large"); b.Int(2_000_000_000)   # width 4
        b.Key("huge"); b.Int(-(1 << 40))       # width 8
        b.Key("unsigned"); b.UInt(60000)
        b.Key("half"); b.Float(0.5)
        b.Key("precise"); b.Float(3.141592653589793)
        b.Key("yes"); b.Bool(True)
        b.Key("no"); b.Bool(False)
        b.Key("name"); b.String("TFLite_Detection_PostProcess")
        b.Key("blob"); b.Blob(bytes([0, 1, 2, 255]))
        b.Key("typed"); b.TypedVectorFromElements([1, 2, 300])
        b.Key("mixed")
        with b.Vector():
            b.Int(7); b.String("seven"); b.Float(7.5)
        b.Key("nested")
        with b.Map():
            b.Key("inner"); b.Int(42)
    return b.Finish()


def main():
    with open(os.path.join(HERE, "flexbuffer_sample.bin"), "wb") as f:
        f.write(sample())


if __name__ == "__main__":
    main()
