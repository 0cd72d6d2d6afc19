#!/usr/bin/env python3
"""Generates LiteVision's typed view of the TFLite schema from `schema.fbs`.

Reads the FlatBuffers schema of TFLite (the `BuiltinOperator` enum, the `BuiltinOptions`
union, the option tables listed in OPTION_TABLES and the enums they use) and writes:

  Sources/TFLiteSchema/BuiltinOperator+Codes.swift        operator codes and names
  Sources/TFLiteSchema/Options/BuiltinOptionsType+Codes.swift   union type codes and names
  Sources/TFLiteSchema/Options/OptionEnums.swift          Padding, ActivationFunctionType, ...
  Sources/TFLiteSchema/Options/BuiltinOptions+Tables.swift   one struct per option table

The schema is not part of the repository. Its source is recorded in every generated header:

  Scripts/generate-schema-swift.py SCHEMA.fbs --source "tflite-micro@<commit> <path>"
  Scripts/generate-schema-swift.py SCHEMA.fbs --source "..." --check   # compare, write nothing
  Scripts/generate-schema-swift.py --verify-stamps   # no schema needed: generated files unedited

Every generated file ends its header with a stamp (SHA-256 of the rest of the file), so
hand edits are detected without the schema (`--verify-stamps`, run by the test suite).
Exit status: 0 when files were written or match, 1 on a mismatch or a schema this script
cannot express (it names the table and field).
"""

import argparse
import hashlib
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# The option tables the engine (or an operator about to be added) reads, in output order.
# Add a `BuiltinOptions` member's name here to give it a typed struct.
OPTION_TABLES = [
    "Conv2DOptions", "DepthwiseConv2DOptions", "TransposeConvOptions", "Pool2DOptions",
    "FullyConnectedOptions", "BatchMatMulOptions",
    "AddOptions", "SubOptions", "MulOptions", "DivOptions",
    "SoftmaxOptions", "LeakyReluOptions", "GeluOptions", "L2NormOptions",
    "ReducerOptions", "ArgMaxOptions", "ArgMinOptions",
    "ConcatenationOptions", "ReshapeOptions", "SqueezeOptions", "StridedSliceOptions",
    "GatherOptions", "PackOptions", "UnpackOptions", "SplitOptions", "SplitVOptions",
    "DepthToSpaceOptions", "SpaceToDepthOptions", "ShapeOptions", "CastOptions", "MirrorPadOptions",
    "ResizeBilinearOptions", "ResizeNearestNeighborOptions",
    "IfOptions", "WhileOptions", "CallOnceOptions", "VarHandleOptions",
]

# Schema scalar type -> (Swift type, OptionsTable accessor).
SCALARS = {
    "bool": ("Bool", "bool"), "byte": ("Int8", "int8"), "int8": ("Int8", "int8"),
    "ubyte": ("UInt8", "uint8"), "uint8": ("UInt8", "uint8"), "short": ("Int16", "int16"),
    "int16": ("Int16", "int16"), "int": ("Int32", "int32"), "int32": ("Int32", "int32"),
    "long": ("Int64", "int64"), "int64": ("Int64", "int64"), "float": ("Float", "float"),
    "float32": ("Float", "float"),
}
VECTORS = {"[int]": ("[Int32]", "int32Array")}
# Schema enums that already have a hand-written Swift type in TFLiteSchema.
EXISTING_ENUMS = {"TensorType"}
SWIFT_KEYWORDS = {"default", "if", "while", "repeat", "switch", "case", "for", "in", "return", "import",
                  "class", "struct", "enum", "func", "var", "let", "operator", "where", "is", "as", "init",
                  "self", "Self", "true", "false", "nil", "try", "throw", "do", "catch", "break", "continue",
                  "extension", "protocol", "static", "public", "private", "internal", "guard", "defer", "else"}


class SchemaError(Exception):
    pass


def strip_comments(text):
    return re.sub(r"//[^\n]*", "", text)


def parse_schema(text):
    """Enums {name: (base, [(NAME, value)])}, unions {name: [members]}, tables {name: [fields]}.
    A field is (name, type, default or None, deprecated); its id is its index."""
    text = strip_comments(text)
    enums, unions, tables = {}, {}, {}
    for m in re.finditer(r"\benum\s+(\w+)\s*:\s*(\w+)\s*\{(.*?)\}", text, re.S):
        name, base, body = m.group(1), m.group(2), m.group(3)
        values, next_value = [], 0
        for entry in [e.strip() for e in body.split(",") if e.strip()]:
            em = re.fullmatch(r"(\w+)\s*(?:=\s*(-?\w+))?\s*(\(deprecated\))?", entry)
            if not em:
                raise SchemaError(f"enum {name}: cannot read entry {entry!r}")
            value = int(em.group(2), 0) if em.group(2) is not None else next_value
            values.append((em.group(1), value))
            next_value = value + 1
        enums[name] = (base, values)
    for m in re.finditer(r"\bunion\s+(\w+)\s*\{(.*?)\}", text, re.S):
        members = []
        for entry in [e.strip() for e in m.group(2).split(",") if e.strip()]:
            em = re.fullmatch(r"(\w+)\s*(\(deprecated\))?", entry)
            if not em:
                raise SchemaError(f"union {m.group(1)}: cannot read member {entry!r}")
            members.append(em.group(1))
        unions[m.group(1)] = members
    for m in re.finditer(r"\btable\s+(\w+)\s*\{(.*?)\}", text, re.S):
        fields = []
        for entry in [e.strip() for e in m.group(2).split(";") if e.strip()]:
            fm = re.fullmatch(r"(\w+)\s*:\s*(\[?\s*\w+\s*\]?)\s*(?:=\s*([\w.+-]+))?\s*(\(([^)]*)\))?", entry, re.S)
            if not fm:
                raise SchemaError(f"table {m.group(1)}: cannot read field {entry!r}")
            attributes = fm.group(5) or ""
            if re.search(r"\bid\s*:", attributes):
                raise SchemaError(f"table {m.group(1)}: explicit field ids are not supported")
            fields.append((fm.group(1), re.sub(r"\s", "", fm.group(2)), fm.group(3), "deprecated" in attributes))
        tables[m.group(1)] = fields
    return enums, unions, tables


def camel(name, first_lower=True):
    """`CONV_2D` -> `conv2D`, `stride_w` -> `strideW`, `RELU_N1_TO_1` -> `reluN1To1`."""
    parts = [p for p in name.split("_") if p]
    words = []
    for i, part in enumerate(parts):
        word = re.sub(r"(\d)d$", r"\1D", part.lower())
        if i > 0 or not first_lower:
            word = word[0].upper() + word[1:]
        words.append(word)
    return "".join(words)


def identifier(name):
    return f"`{name}`" if name in SWIFT_KEYWORDS else name


def stamp(body):
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def finish(header_lines, body):
    """A generated file: header comment lines, the stamp line, then `body`."""
    header = "".join(f"// {line}\n" if line else "//\n" for line in header_lines)
    return header + f"// generated-stamp: {stamp(body)}\n" + body


def header(source, what):
    return [f"Generated by Scripts/generate-schema-swift.py from the TFLite schema.fbs: {what}.",
            f"Schema source: {source}",
            "Do not edit: change the script and run it again (see its doc comment)."]


def operator_codes(enums, source):
    base, values = enums["BuiltinOperator"]
    out = ["", "extension BuiltinOperator {"]
    for name, value in values:
        out.append(f"    /// `{name}`")
        out.append(f"    public static let {identifier(camel(name))} = BuiltinOperator(rawValue: {value})")
    out += ["", "    /// The schema's name for a known code, e.g. `CONV_2D` (a switch: no table is built at",
            "    /// run time, so naming an operator costs nothing the first time either).",
            "    static func schemaName(_ code: Int32) -> String? {", "        switch code {"]
    out += [f"        case {value}: return \"{name}\"" for name, value in values]
    out += ["        default: return nil", "        }", "    }", "}", ""]
    return finish(header(source, "the BuiltinOperator enum (names and values only)"), "\n".join(out))


def options_type_codes(unions, source):
    members = unions["BuiltinOptions"]
    out = ["", "extension BuiltinOptionsType {"]
    for code, name in enumerate(members, start=1):
        out.append(f"    /// `{name}`")
        out.append(f"    public static let {identifier(name[0].lower() + name[1:])} = BuiltinOptionsType(rawValue: {code})")
    out += ["", "    /// The schema's name for a known union type code, e.g. `Conv2DOptions` (a switch: no",
            "    /// table is built at run time).",
            "    static func schemaName(_ code: UInt8) -> String? {", "        switch code {",
            "        case 0: return \"NONE\""]
    out += [f"        case {code}: return \"{name}\"" for code, name in enumerate(members, start=1)]
    out += ["        default: return nil", "        }", "    }", "}", ""]
    return finish(header(source, "the members of the BuiltinOptions union, in order (type code = position)"),
                  "\n".join(out))


def used_enums(tables, enums):
    names = []
    for table in OPTION_TABLES:
        for _, type_name, _, deprecated in tables[table]:
            if not deprecated and type_name in enums and type_name not in EXISTING_ENUMS and type_name not in names:
                names.append(type_name)
    return names


def option_enums(tables, enums, source):
    out = [""]
    for name in used_enums(tables, enums):
        base, values = enums[name]
        if base not in ("byte", "int8"):
            raise SchemaError(f"enum {name}: base type {base} is not supported (only byte)")
        out.append(f"/// The schema's `{name}` enum (`{base}`). Codes outside it are rejected as")
        out.append("/// ``TFLiteSchemaError/unknownEnumValue(operator:field:enumeration:value:)``.")
        out.append(f"public enum {name}: Int8, OptionsEnumeration, CaseIterable, CustomStringConvertible {{")
        for case, value in values:
            out.append(f"    /// `{case}`")
            out.append(f"    case {identifier(camel(case))} = {value}")
        out += ["", f"    /// The schema's name, e.g. `{values[0][0]}`.", "    public var description: String {",
                "        switch self {"]
        out += [f"        case .{camel(case)}: return \"{case}\"" for case, _ in values]
        out += ["        }", "    }", "}", ""]
    return finish(header(source, "the enums the typed option tables use"), "\n".join(out))


def swift_field(table, field, enums):
    """(Swift type, default expression, decode expression without the field id)."""
    name, type_name, default, _ = field
    label = camel(name)
    if type_name in SCALARS:
        swift, accessor = SCALARS[type_name]
        if swift == "Bool":
            value = {"true": "true", "false": "false", None: "false"}.get(default)
            if value is None:
                raise SchemaError(f"{table}.{name}: bool default {default!r}")
        elif swift == "Float":
            value = repr(float(default)) if default is not None else "0"
        else:
            value = str(int(default, 0)) if default is not None else "0"
        return swift, value, f"table.{accessor}({{id}}, default: {value})"
    if type_name == "string":
        if default is not None:
            raise SchemaError(f"{table}.{name}: a string cannot have a default")
        return "String", '""', 'table.string({id}) ?? ""'
    if type_name in VECTORS:
        swift, accessor = VECTORS[type_name]
        if default is not None:
            raise SchemaError(f"{table}.{name}: a vector cannot have a default")
        return swift, "[]", f"table.{accessor}({{id}})"
    if type_name in enums:
        base, values = enums[type_name]
        if default is None:
            zero = [case for case, value in values if value == 0]
            if not zero:
                raise SchemaError(f"{table}.{name}: enum {type_name} has no 0 value for the default")
            default = zero[0]
        if default not in [case for case, _ in values]:
            raise SchemaError(f"{table}.{name}: default {default} is not a {type_name} case")
        value = f".{identifier(camel(default))}"
        return (type_name, value,
                f"try table.enumeration({{id}}, default: {type_name}{value}, field: \"{name}\", operator: name)")
    raise SchemaError(f"{table}.{name}: type {type_name} is not supported; extend SCALARS or VECTORS")


def option_tables(unions, tables, enums, source):
    members = unions["BuiltinOptions"]
    out = [""]
    for table in OPTION_TABLES:
        if table not in members:
            raise SchemaError(f"{table} is not a member of the BuiltinOptions union")
        if table not in tables:
            raise SchemaError(f"table {table} is not in the schema")
        code = members.index(table) + 1
        fields = tables[table]
        live = [(i, f) for i, f in enumerate(fields) if not f[3]]
        out.append(f"/// The schema's `{table}` table (`BuiltinOptions` type code {code}), every field typed.")
        out.append("/// Absent fields take the schema's defaults; decode with")
        out.append(f"/// `try {table}(op.builtinOptions, operator: name)`, which checks the union type code first.")
        out.append(f"public struct {table}: BuiltinOptionsDecodable {{")
        out.append(f"    /// `BuiltinOptions` type code {code}.")
        out.append(f"    public static let optionsType = BuiltinOptionsType.{identifier(table[0].lower() + table[1:])}")
        decodes = []
        for index, field in live:
            swift, value, decode = swift_field(table, field, enums)
            default_text = f"; default {field[2]}" if field[2] is not None else ""
            out.append(f"    /// `{field[0]}: {field[1]}` (field {index}{default_text}).")
            out.append(f"    public var {identifier(camel(field[0]))}: {swift} = {value}")
            decodes.append(f"        {identifier(camel(field[0]))} = {decode.format(id=index)}")
        deprecated = [f"{f[0]} ({i})" for i, f in enumerate(fields) if f[3]]
        if deprecated:
            out.append(f"    // Deprecated in the schema and not read: {', '.join(deprecated)}.")
        out += ["", "    /// Every field at the schema's default.", "    public init() {}", "",
                "    /// Reads the fields of `table` (already checked to be this union member); absent",
                "    /// fields take the schema's defaults. `name` is the operator, for errors."]
        if any("enumeration" in d for d in decodes):
            out.append("    /// - Throws: ``TFLiteSchemaError/unknownEnumValue(operator:field:enumeration:value:)``")
            out.append("    ///   for an enum code the schema does not define.")
            out.append("    public init(fields table: OptionsTable, operator name: String) throws {")
        elif decodes:
            out.append("    public init(fields table: OptionsTable, operator name: String) {")
        else:
            out.append("    public init(fields table: OptionsTable, operator name: String) {}")
        if decodes:
            out += decodes
            out.append("    }")
        out += ["}", ""]
    return finish(header(source, "one struct per option table listed in the script"), "\n".join(out))


def outputs(schema_text, source):
    enums, unions, tables = parse_schema(schema_text)
    return {
        "Sources/TFLiteSchema/BuiltinOperator+Codes.swift": operator_codes(enums, source),
        "Sources/TFLiteSchema/Options/BuiltinOptionsType+Codes.swift": options_type_codes(unions, source),
        "Sources/TFLiteSchema/Options/OptionEnums.swift": option_enums(tables, enums, source),
        "Sources/TFLiteSchema/Options/BuiltinOptions+Tables.swift": option_tables(unions, tables, enums, source),
    }


GENERATED = ["Sources/TFLiteSchema/BuiltinOperator+Codes.swift",
             "Sources/TFLiteSchema/Options/BuiltinOptionsType+Codes.swift",
             "Sources/TFLiteSchema/Options/OptionEnums.swift",
             "Sources/TFLiteSchema/Options/BuiltinOptions+Tables.swift"]


def verify_stamps():
    failures = 0
    for path in GENERATED:
        try:
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                text = f.read()
        except FileNotFoundError:
            print(f"{path}: missing; regenerate it", file=sys.stderr)
            failures += 1
            continue
        m = re.search(r"^// generated-stamp: ([0-9a-f]{64})\n", text, re.M)
        if not m or stamp(text[m.end():]) != m.group(1):
            print(f"{path}: edited by hand (stamp does not match); regenerate it", file=sys.stderr)
            failures += 1
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("schema", nargs="?", help="path of the TFLite schema.fbs")
    parser.add_argument("--source", help="where the schema came from (repository@commit path), for the headers")
    parser.add_argument("--check", action="store_true", help="compare with the committed files, write nothing")
    parser.add_argument("--verify-stamps", action="store_true", help="check that no generated file was edited")
    args = parser.parse_args()
    if args.verify_stamps:
        failures = verify_stamps()
        print("generated files: stamps match" if failures == 0 else f"{failures} generated file(s) edited")
        return 1 if failures else 0
    if not args.schema or not args.source:
        parser.error("SCHEMA and --source are required (or --verify-stamps)")
    with open(args.schema, encoding="utf-8") as f:
        schema_text = f.read()
    try:
        files = outputs(schema_text, args.source)
    except SchemaError as error:
        print(f"schema not expressible: {error}", file=sys.stderr)
        return 1
    failures = 0
    for path, text in files.items():
        full = os.path.join(ROOT, path)
        if args.check:
            try:
                with open(full, encoding="utf-8") as f:
                    same = f.read() == text
            except FileNotFoundError:
                same = False
            if not same:
                print(f"{path}: differs from what the schema generates", file=sys.stderr)
                failures += 1
        else:
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(text)
    if args.check:
        print("generated files: reproduced byte for byte" if failures == 0 else f"{failures} file(s) differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
