"""Writes deflated_archive.zip: one deflated label file (300 lines `class_<i>`) and one stored
entry, written by python's zipfile, for the associated-file archive tests.

Run (python3 with numpy and tflite; Scripts/generate-goldens.sh runs it): python3 Tests/Fixtures/schema/make_archive_fixture.py
"""
import io, os, zipfile

buf = io.BytesIO()
with zipfile.ZipFile(buf, "w") as z:
    z.writestr(zipfile.ZipInfo("labels.txt"), "\n".join(f"class_{i}" for i in range(300)) + "\n",
               compress_type=zipfile.ZIP_DEFLATED)
    z.writestr(zipfile.ZipInfo("notes/readme.txt"), "stored entry\n", compress_type=zipfile.ZIP_STORED)
with open(os.path.join(os.path.dirname(__file__), "deflated_archive.zip"), "wb") as f:
    f.write(buf.getvalue())
