"""Control flow and data-dependent shapes (Tests/Fixtures/ops/control_flow/), built with
multi_subgraph_model.py and run in the reference runtime (BUILTIN_REF kernels):

    if_then, if_else         IF(cond, x, y): then = x + y, else = x * y
    if_shapes_then, if_shapes_else
                             IF whose branches return different shapes: then = concat(x, y)
                             [8], else = x * y [4]; then out + out in the main graph
    while_count              WHILE over (i, acc, grow): while i < 5 { i += 1; acc *= 1.5;
                             grow = concat(grow, grow * 2) } -- grow doubles each iteration
                             (a loop-carried tensor whose shape changes), then grow + grow in
                             the main graph (a node re-prepared at invoke)
    while_zero_iterations    the same model with i = 7: the loop state is returned unchanged
    call_once_variable       CALL_ONCE(init: v = c), then out = x + read(v), assign(v, out);
                             invoke2_output_0.npy holds a second invoke's output (v kept)
    variable_signatures      signatures sharing one variable: "step" (subgraph 0: CALL_ONCE
                             init, out = x + v, v = out) and "peek" (subgraph 2: v + 0);
                             variable_signatures.json records the reference's results
    resource_if_then, resource_if_else
                             a VAR_HANDLE handle passed into IF's branches (resource tensor as
                             a subgraph input): then: v = x + v, out = v; else: v = x * v,
                             out = read(v) + 1; CALL_ONCE initialises v; invoke2_output_0.npy
                             holds a second invoke's output (v changed by the first)
    resource_while           the handle carried through WHILE's state (body input and output):
                             while i < 4 { v = v + x; x = x * 0.5; i += 1 }, then read(v) in
                             the main graph after the loop
    where_ties, where_all_false, where_all_true
                             WHERE(EQUAL(x, y)) on a computed input, and GATHER_ND(x, where)

Hostile models (Tests/Fixtures/control_flow/hostile/, never run in the reference):
recursion_self, recursion_indirect, subgraph_out_of_range, arity_mismatch, while_forever.
Run: Scripts/generate-goldens.sh ops_control_flow
"""
import os

import numpy as np
from tflite.BuiltinOperator import BuiltinOperator as Op

import common
from multi_subgraph_model import RESOURCE, Graph, build, subgraph_options, var_handle_options
import single_op_model as som

FAMILY = "control_flow"
HOSTILE = os.path.join(common.ROOT, "Tests", "Fixtures", "control_flow", "hostile")


def binary(g, code, a, b, shape, dtype, module=None):
    out = g.tensor(shape, dtype)
    if module:
        g.op(code, [a, b], [out], som.options_type(module), som.options(module, FusedActivationFunction=0))
    else:
        g.op(code, [a, b], [out])
    return out


def if_model():
    main = Graph("main")
    cond = main.input([1], np.bool_, "cond")
    x = main.input([4], np.float32, "x")
    y = main.input([4], np.float32, "y")
    out = main.tensor([4], np.float32, name="out")
    main.op(Op.IF, [cond, x, y], [out], *subgraph_options("IfOptions", ThenSubgraphIndex=1, ElseSubgraphIndex=2))
    main.outputs = [out]
    branches = []
    for name, code, module in [("then_add", Op.ADD, "AddOptions"), ("else_mul", Op.MUL, "MulOptions")]:
        g = Graph(name)
        a = g.input([4], np.float32)
        b = g.input([4], np.float32)
        g.outputs = [binary(g, code, a, b, [4], np.float32, module)]
        branches.append(g)
    return build([main] + branches)


def if_shapes_model():
    main = Graph("main")
    cond = main.input([1], np.bool_, "cond")
    x = main.input([4], np.float32, "x")
    y = main.input([4], np.float32, "y")
    out = main.tensor([8], np.float32, name="out")
    main.op(Op.IF, [cond, x, y], [out], *subgraph_options("IfOptions", ThenSubgraphIndex=1, ElseSubgraphIndex=2))
    main.outputs = [out, binary(main, Op.ADD, out, out, [8], np.float32, "AddOptions")]
    then = Graph("then_concat")
    a, b = then.input([4], np.float32), then.input([4], np.float32)
    joined = then.tensor([8], np.float32)
    then.op(Op.CONCATENATION, [a, b], [joined], som.options_type("ConcatenationOptions"),
            som.options("ConcatenationOptions", Axis=0, FusedActivationFunction=0))
    then.outputs = [joined]
    other = Graph("else_mul")
    a, b = other.input([4], np.float32), other.input([4], np.float32)
    other.outputs = [binary(other, Op.MUL, a, b, [4], np.float32, "MulOptions")]
    return build([main, then, other])


def while_model(body_increments=True, grows=True):
    main = Graph("main")
    i = main.input([1], np.int32, "i")
    acc = main.input([2], np.float32, "acc")
    grow = main.input([1], np.float32, "grow")
    outs = [main.tensor([1], np.int32, name="i_out"), main.tensor([2], np.float32, name="acc_out"),
            main.tensor([1], np.float32, name="grow_out")]
    main.op(Op.WHILE, [i, acc, grow], outs, *subgraph_options("WhileOptions", CondSubgraphIndex=1, BodySubgraphIndex=2))
    doubled = binary(main, Op.ADD, outs[2], outs[2], [1], np.float32, "AddOptions")
    main.outputs = outs + [doubled]

    cond = Graph("cond")
    ci = cond.input([1], np.int32)
    cond.input([2], np.float32)
    cond.input([1], np.float32)
    cond.outputs = [binary(cond, Op.LESS, ci, cond.const(np.array([5], np.int32)), [1], np.bool_)]

    body = Graph("body")
    bi = body.input([1], np.int32)
    bacc = body.input([2], np.float32)
    bgrow = body.input([1], np.float32)
    step = np.array([1 if body_increments else 0], np.int32)
    ni = binary(body, Op.ADD, bi, body.const(step), [1], np.int32, "AddOptions")
    nacc = binary(body, Op.MUL, bacc, body.const(np.array([1.5, -0.5], np.float32)), [2], np.float32, "MulOptions")
    twice = binary(body, Op.MUL, bgrow, body.const(np.array([2.0], np.float32)), [1], np.float32, "MulOptions")
    ngrow = twice
    if grows:
        ngrow = body.tensor([2], np.float32)
        body.op(Op.CONCATENATION, [bgrow, twice], [ngrow], som.options_type("ConcatenationOptions"),
                som.options("ConcatenationOptions", Axis=0, FusedActivationFunction=0))
    body.outputs = [ni, nacc, ngrow]
    return build([main, cond, body])


def call_once_model():
    main = Graph("main")
    x = main.input([3], np.float32, "x")
    handle = main.tensor([], RESOURCE, name="handle")
    value = main.tensor([3], np.float32, name="value")
    out = main.tensor([3], np.float32, name="out")
    main.op(Op.CALL_ONCE, [], [], *subgraph_options("CallOnceOptions", InitSubgraphIndex=1))
    main.op(Op.VAR_HANDLE, [], [handle], *var_handle_options("v"))
    main.op(Op.READ_VARIABLE, [handle], [value])
    main.op(Op.ADD, [x, value], [out], som.options_type("AddOptions"), som.options("AddOptions", FusedActivationFunction=0))
    main.op(Op.ASSIGN_VARIABLE, [handle, out], [])
    main.outputs = [out]

    init = Graph("init")
    h = init.tensor([], RESOURCE, name="init_handle")
    init.op(Op.VAR_HANDLE, [], [h], *var_handle_options("v"))
    init.op(Op.ASSIGN_VARIABLE, [h, init.const(np.array([10.0, -2.5, 0.25], np.float32))], [])
    return build([main, init])


def variable_init(name="init", values=(1.0, 2.0, -3.0)):
    """A CALL_ONCE subgraph assigning `values` to variable "v"."""
    init = Graph(name)
    h = init.tensor([], RESOURCE, name="init_handle")
    init.op(Op.VAR_HANDLE, [], [h], *var_handle_options("v"))
    init.op(Op.ASSIGN_VARIABLE, [h, init.const(np.array(values, np.float32))], [])
    return init


def resource_if_model():
    """IF(cond, handle, x) whose branches read and assign the variable through the handle input."""
    main = Graph("main")
    cond = main.input([1], np.bool_, "cond")
    x = main.input([3], np.float32, "x")
    handle = main.tensor([], RESOURCE, name="handle")
    out = main.tensor([3], np.float32, name="out")
    main.op(Op.CALL_ONCE, [], [], *subgraph_options("CallOnceOptions", InitSubgraphIndex=3))
    main.op(Op.VAR_HANDLE, [], [handle], *var_handle_options("v"))
    main.op(Op.IF, [cond, handle, x], [out], *subgraph_options("IfOptions", ThenSubgraphIndex=1, ElseSubgraphIndex=2))
    main.outputs = [out]

    then = Graph("then_accumulate")
    th, tx = then.input([], RESOURCE, "then_handle"), then.input([3], np.float32, "then_x")
    tv = then.tensor([3], np.float32, name="then_value")
    then.op(Op.READ_VARIABLE, [th], [tv])
    total = binary(then, Op.ADD, tx, tv, [3], np.float32, "AddOptions")
    then.op(Op.ASSIGN_VARIABLE, [th, total], [])
    then.outputs = [total]

    other = Graph("else_scale")
    eh, ex = other.input([], RESOURCE, "else_handle"), other.input([3], np.float32, "else_x")
    ev = other.tensor([3], np.float32, name="else_value")
    other.op(Op.READ_VARIABLE, [eh], [ev])
    other.op(Op.ASSIGN_VARIABLE, [eh, binary(other, Op.MUL, ex, ev, [3], np.float32, "MulOptions")], [])
    reread = other.tensor([3], np.float32, name="else_reread")
    other.op(Op.READ_VARIABLE, [eh], [reread])
    other.outputs = [binary(other, Op.ADD, reread, other.const(np.ones(3, np.float32)), [3], np.float32, "AddOptions")]
    return build([main, then, other, variable_init()])


def resource_while_model():
    """WHILE over (i, handle, x): the body reads and assigns the variable through the handle
    it receives and passes the handle on; the main graph reads the variable after the loop."""
    main = Graph("main")
    i = main.input([1], np.int32, "i")
    x = main.input([3], np.float32, "x")
    handle = main.tensor([], RESOURCE, name="handle")
    outs = [main.tensor([1], np.int32, name="i_out"), main.tensor([], RESOURCE, name="handle_out"),
            main.tensor([3], np.float32, name="x_out")]
    final = main.tensor([3], np.float32, name="final_v")
    main.op(Op.CALL_ONCE, [], [], *subgraph_options("CallOnceOptions", InitSubgraphIndex=3))
    main.op(Op.VAR_HANDLE, [], [handle], *var_handle_options("v"))
    main.op(Op.WHILE, [i, handle, x], outs, *subgraph_options("WhileOptions", CondSubgraphIndex=1, BodySubgraphIndex=2))
    main.op(Op.READ_VARIABLE, [handle], [final])
    main.outputs = [outs[0], outs[2], final]

    cond = Graph("cond")
    ci = cond.input([1], np.int32)
    cond.input([], RESOURCE)
    cond.input([3], np.float32)
    cond.outputs = [binary(cond, Op.LESS, ci, cond.const(np.array([4], np.int32)), [1], np.bool_)]

    body = Graph("body")
    bi, bh, bx = body.input([1], np.int32), body.input([], RESOURCE, "body_handle"), body.input([3], np.float32)
    bv = body.tensor([3], np.float32, name="body_value")
    body.op(Op.READ_VARIABLE, [bh], [bv])
    body.op(Op.ASSIGN_VARIABLE, [bh, binary(body, Op.ADD, bv, bx, [3], np.float32, "AddOptions")], [])
    ni = binary(body, Op.ADD, bi, body.const(np.array([1], np.int32)), [1], np.int32, "AddOptions")
    nx = binary(body, Op.MUL, bx, body.const(np.full(3, 0.5, np.float32)), [3], np.float32, "MulOptions")
    body.outputs = [ni, bh, nx]
    return build([main, cond, body, variable_init()])


def save_second_invoke(name, model, inputs):
    """Runs `model` twice on `inputs` in one reference interpreter (variables kept) and saves
    the second invoke's outputs as invoke2_output_<k>.npy next to the case."""
    interp = common.reference_interpreter(model)
    for _ in range(2):
        for d, x in zip(interp.get_input_details(), inputs):
            interp.set_tensor(d["index"], x)
        interp.invoke()
    for k, d in enumerate(interp.get_output_details()):
        np.save(os.path.join(common.OPS_DIR, FAMILY, name, f"invoke2_output_{k}.npy"), interp.get_tensor(d["index"]).copy())


def variable_signatures_model():
    main = Graph("step")
    x = main.input([3], np.float32, "x")
    handle = main.tensor([], RESOURCE, name="handle")
    value = main.tensor([3], np.float32, name="value")
    out = main.tensor([3], np.float32, name="out")
    main.op(Op.CALL_ONCE, [], [], *subgraph_options("CallOnceOptions", InitSubgraphIndex=1))
    main.op(Op.VAR_HANDLE, [], [handle], *var_handle_options("v"))
    main.op(Op.READ_VARIABLE, [handle], [value])
    main.op(Op.ADD, [x, value], [out], som.options_type("AddOptions"), som.options("AddOptions", FusedActivationFunction=0))
    main.op(Op.ASSIGN_VARIABLE, [handle, out], [])
    main.outputs = [out]
    init = Graph("init")
    h = init.tensor([], RESOURCE, name="init_handle")
    init.op(Op.VAR_HANDLE, [], [h], *var_handle_options("v"))
    init.op(Op.ASSIGN_VARIABLE, [h, init.const(np.array([10.0, -2.5, 0.25], np.float32))], [])
    peek = Graph("peek")
    dummy = peek.input([1], np.float32, "unused")
    ph = peek.tensor([], RESOURCE, name="peek_handle")
    pv = peek.tensor([3], np.float32, name="peek_value")
    peek.op(Op.CALL_ONCE, [], [], *subgraph_options("CallOnceOptions", InitSubgraphIndex=1))
    peek.op(Op.VAR_HANDLE, [], [ph], *var_handle_options("v"))
    peek.op(Op.READ_VARIABLE, [ph], [pv])
    peek.outputs = [pv]
    return build([main, init, peek], signatures=[("step", 0, [("x", x)], [("out", out)]),
                                                  ("peek", 2, [("unused", dummy)], [("value", pv)])])


def variable_signatures_case():
    """Runs step, peek, step, peek through signature runners of one reference interpreter."""
    import json
    model = variable_signatures_model()
    interp = common.reference_interpreter(model)
    step, peek = interp.get_signature_runner("step"), interp.get_signature_runner("peek")
    x = np.array([1.0, 2.0, -4.0], np.float32)
    results = []
    for _ in range(2):
        results.append(step(x=x)["out"].tolist())
        results.append(peek(unused=np.zeros(1, np.float32))["value"].tolist())
    d = os.path.join(common.ROOT, "Tests", "Fixtures", "control_flow")
    with open(os.path.join(d, "variable_signatures.tflite"), "wb") as f:
        f.write(model)
    with open(os.path.join(d, "variable_signatures.json"), "w") as f:
        json.dump({"x": x.tolist(), "sequence": ["step", "peek", "step", "peek"], "results": results}, f, indent=1)


def where_model():
    main = Graph("main")
    x = main.input([2, 3], np.int32, "x")
    y = main.input([2, 3], np.int32, "y")
    equal = main.tensor([2, 3], np.bool_)
    main.op(Op.EQUAL, [x, y], [equal])
    coords = main.tensor([6, 2], np.int64, name="coords")
    main.op(Op.WHERE, [equal], [coords])
    picked = main.tensor([6], np.int32, name="picked")
    main.op(Op.GATHER_ND, [x, coords], [picked])
    main.outputs = [coords, picked]
    return build([main])


def run_allowing_empty(model, inputs):
    """common.run_reference, except that empty outputs (which the reference's Python binding
    cannot return: "Invalid tensor size") come back as empty arrays of the reported shape."""
    interp = common.reference_interpreter(model)
    for d, x in zip(interp.get_input_details(), inputs):
        interp.set_tensor(d["index"], x)
    interp.invoke()
    outputs = []
    for d in interp.get_output_details():
        try:
            outputs.append(interp.get_tensor(d["index"]).copy())
        except ValueError:
            details = [t for t in interp.get_tensor_details() if t["index"] == d["index"]][0]
            assert 0 in list(details["shape"]), f"output {d['name']} is not empty: {details['shape']}"
            outputs.append(np.zeros(details["shape"], d["dtype"]))
    return outputs


def save_empty_case(name, model, inputs, description):
    """common.save_case for a case with empty outputs (see run_allowing_empty)."""
    outputs = run_allowing_empty(model, inputs)
    original = common.run_reference
    common.run_reference = lambda m, i, **_: outputs
    try:
        common.save_case(FAMILY, name, model, inputs, "exact", description)
    finally:
        common.run_reference = original


def save_hostile(name, model):
    os.makedirs(HOSTILE, exist_ok=True)
    with open(os.path.join(HOSTILE, f"{name}.tflite"), "wb") as f:
        f.write(model)


def hostile():
    def calling(options, arity=1):
        main = Graph("main")
        cond = main.input([1], np.bool_)
        args = [main.input([1], np.float32) for _ in range(arity)]
        out = main.tensor([1], np.float32)
        main.op(Op.IF, [cond] + args, [out], *options)
        main.outputs = [out]
        return main

    def passthrough(name, inputs=1):
        g = Graph(name)
        ins = [g.input([1], np.float32) for _ in range(inputs)]
        g.outputs = [binary(g, Op.ADD, ins[0], ins[-1], [1], np.float32, "AddOptions")]
        return g

    # Subgraph 0 names itself as the then branch.
    save_hostile("recursion_self", build([calling(subgraph_options("IfOptions", ThenSubgraphIndex=0, ElseSubgraphIndex=1)),
                                          passthrough("else")]))
    # 0 -> 1 -> 2 -> 1 through CALL_ONCE.
    graphs = [Graph("main"), Graph("a"), Graph("b")]
    for g, target in zip(graphs, [1, 2, 1]):
        g.op(Op.CALL_ONCE, [], [], *subgraph_options("CallOnceOptions", InitSubgraphIndex=target))
    x = graphs[0].input([1], np.float32)
    graphs[0].outputs = [binary(graphs[0], Op.ADD, x, x, [1], np.float32, "AddOptions")]
    save_hostile("recursion_indirect", build(graphs))
    save_hostile("subgraph_out_of_range",
                 build([calling(subgraph_options("IfOptions", ThenSubgraphIndex=5, ElseSubgraphIndex=1)), passthrough("else")]))
    # IF passes two arguments; the then branch takes one.
    save_hostile("arity_mismatch", build([calling(subgraph_options("IfOptions", ThenSubgraphIndex=1, ElseSubgraphIndex=2), 2),
                                          passthrough("then", 1), passthrough("else", 2)]))
    # The counter never moves (and nothing grows, so only the iteration limit can stop it).
    save_hostile("while_forever", while_model(body_increments=False, grows=False))


def main():
    common.clear_family(FAMILY)
    rng = np.random.default_rng(13)
    f = lambda *s: rng.uniform(-2, 2, s).astype(np.float32)
    model = if_model()
    x, y = f(4), f(4)
    common.save_case(FAMILY, "if_then", model, [np.array([True]), x, y], "exact", "IF true: x + y")
    common.save_case(FAMILY, "if_else", model, [np.array([False]), x, y], "exact", "IF false: x * y")

    model = while_model()
    state = [np.array([0], np.int32), np.array([0.75, -3.0], np.float32), np.array([1.25], np.float32)]
    common.save_case(FAMILY, "while_count", model, state, "exact",
                     "WHILE i < 5: i += 1, acc *= [1.5, -0.5], grow = concat(grow, 2 grow); then grow + grow")
    state[0] = np.array([7], np.int32)
    common.save_case(FAMILY, "while_zero_iterations", model, state, "exact", "WHILE whose condition is false at once")

    model = call_once_model()
    x = f(3)
    common.save_case(FAMILY, "call_once_variable", model, [x], "exact",
                     "CALL_ONCE assigns v = c; out = x + v; v = out")
    interp = common.reference_interpreter(model)
    detail = interp.get_input_details()[0]
    for _ in range(2):
        interp.set_tensor(detail["index"], x)
        interp.invoke()
    second = interp.get_tensor(interp.get_output_details()[0]["index"]).copy()
    np.save(os.path.join(common.OPS_DIR, FAMILY, "call_once_variable", "invoke2_output_0.npy"), second)

    model = where_model()
    x = np.array([[1, 2, 3], [4, 5, 6]], np.int32)
    common.save_case(FAMILY, "where_ties", model, [x, np.array([[1, 0, 3], [4, 4, 6]], np.int32)], "exact",
                     "WHERE(x == y) with ties in some positions, GATHER_ND of the hits")
    save_empty_case("where_all_false", model, [x, x + 1], "WHERE on all false: shape [0, 2]")
    common.save_case(FAMILY, "where_all_true", model, [x, x.copy()], "exact", "WHERE on all true: shape [6, 2]")
    model = if_shapes_model()
    x, y = f(4), f(4)
    common.save_case(FAMILY, "if_shapes_then", model, [np.array([True]), x, y], "exact",
                     "IF whose then branch gives [8] (concat)")
    common.save_case(FAMILY, "if_shapes_else", model, [np.array([False]), x, y], "exact",
                     "IF whose else branch gives [4] (mul): output shape known only at invoke")
    model = resource_if_model()
    x = f(3)
    for name, flag, text in (("resource_if_then", True, "then: v = x + v, out = v"),
                             ("resource_if_else", False, "else: v = x * v, out = read(v) + 1")):
        common.save_case(FAMILY, name, model, [np.array([flag]), x], "exact",
                         f"IF(cond, VAR_HANDLE handle, x), CALL_ONCE v = [1, 2, -3]; {text}")
        save_second_invoke(name, model, [np.array([flag]), x])
    model = resource_while_model()
    common.save_case(FAMILY, "resource_while", model, [np.array([0], np.int32), f(3)], "exact",
                     "WHILE(i, handle, x): v += x, x *= 0.5 while i < 4; read(v) after the loop")
    hostile()
    variable_signatures_case()


if __name__ == "__main__":
    main()
