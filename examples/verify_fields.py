#!/usr/bin/env python3
"""Check the field fragments of one tool call offline (seed 000, section 7). Lesson 07.

Stand-alone: Python 3.9+ standard library only, no course package. Copy this folder anywhere
and run ``python3 verify_fields.py`` (default: ``field_fragments.json`` beside this file) or
``python3 verify_fields.py OTHER.json``. ``--lang en`` (or ``LESSONS_LANG=en``) prints English.
It calls no model, connects to no MCP server and reads no ``/workspace`` path: it only compares
the JSON pieces with each other. Each check prints PASS or FAIL and the reason, then the list
of what the checks cannot prove. Exit code 0 when every check passes, else 1.

The package's ``lessons_lib.verify_fields`` runs the same seven checks (the course's test
compares the verdicts); the seed lists six relations, the alias check is the course's own.
"""

import json
import os
import sys
from pathlib import Path

FAILURE_PREFIX = "ERROR: "
"""How the application marks a failed tool call in the text it feeds back to the model."""
JSON_TYPES = ("string", "number", "integer", "boolean", "object", "array", "null")
VALUE_KEYS = ("const", "default", "enum", "examples")
LANG = "zh"


class Fail(Exception):
    """A check's reason for FAIL."""


def say(zh, en):
    """The text in the chosen language."""
    return en if LANG == "en" else zh


def need(condition, reason):
    if not condition:
        raise Fail(reason)


def same(a, b):
    """Strict JSON equality: 20, 20.0, "20" and true are four different values."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))  # noqa: B905 (3.9: no strict=)
    return a == b


def show(value, limit=60):
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def obj(value, where):
    need(
        isinstance(value, dict),
        say(f"{where} 不是对象：{show(value)}", f"{where} is not an object: {show(value)}"),
    )
    return value


def rule_summary(schema, where):
    """'path: string, head: number' when the schema is a rule made of types."""
    s = obj(schema, where)
    need(s.get("type", "object") == "object", say(f"{where}.type 不是 object", f"{where}.type is not object"))
    props = obj(s.get("properties"), where + ".properties")
    parts = []
    for name, rule in props.items():
        need(
            isinstance(rule, dict),
            say(f"{where} 里 {name} 是值不是规则", f"{where}: {name} is a value, not a rule"),
        )
        kind = rule.get("type")
        kinds = kind if isinstance(kind, list) else [kind]
        valid = bool(kinds) and all(isinstance(k, str) and k in JSON_TYPES for k in kinds)
        has_alt = any(k in rule for k in ("anyOf", "oneOf", "$ref"))
        need(
            valid or (kind is None and has_alt),
            say(
                f"{where}.{name} 的 type 不是 JSON 类型：{show(kind)}",
                f"{where}.{name}: type is not a JSON type: {show(kind)}",
            ),
        )
        parts.append(f"{name}: {'|'.join(kinds) if valid else 'anyOf'}")
    required = s.get("required", [])
    ok = isinstance(required, list) and all(isinstance(r, str) and r in props for r in required)
    need(
        ok,
        say(
            f"{where}.required 不合规则：{show(required)}",
            f"{where}.required is not a rule: {show(required)}",
        ),
    )
    return ", ".join(parts)


def value_in_rule(schema, values, where):
    """Where a rule carries one of this call's values, else None."""
    if isinstance(schema, dict):
        for key, sub in schema.items():
            here = f"{where}.{key}"
            found = []
            if key in VALUE_KEYS:
                found = list(sub) if isinstance(sub, list) else [sub]
            if isinstance(sub, str):
                found.append(sub)
            if any(same(c, v) for c in found for v in values):
                return f"{here} = {show(sub)}"
            deeper = value_in_rule(sub, values, here)
            if deeper:
                return deeper
    elif isinstance(schema, list):
        for n, sub in enumerate(schema):
            deeper = value_in_rule(sub, values, f"{where}[{n}]")
            if deeper:
                return deeper
    return None


def type_ok(value, kind):
    checks = {
        "string": lambda v: isinstance(v, str),
        "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
        "integer": lambda v: (
            (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer())
        ),
        "boolean": lambda v: isinstance(v, bool),
        "object": lambda v: isinstance(v, dict),
        "array": lambda v: isinstance(v, list),
        "null": lambda v: v is None,
    }
    kinds = kind if isinstance(kind, list) else [kind]
    return kind is None or any(k in checks and checks[k](value) for k in kinds)


def values_follow_rule(args, schema):
    """'path=..., head=20' when every value has its declared type and nothing required is missing."""
    props = schema.get("properties") or {}
    for key, value in args.items():
        looks_like_rule = isinstance(value, dict) and (
            value.get("type") in JSON_TYPES or "properties" in value
        )
        need(
            not looks_like_rule,
            say(f"{key} 的值是一条规则：{show(value)}", f"the value of {key} is a rule: {show(value)}"),
        )
        need(key in props, say(f"{key} 没有在规则里声明", f"{key} is not declared in the rule"))
        declared = props[key].get("type") if isinstance(props[key], dict) else None
        need(
            type_ok(value, declared),
            say(
                f"{key}={show(value)} 不是声明的类型 {show(declared)}",
                f"{key}={show(value)} is not the declared type {show(declared)}",
            ),
        )
    missing = [r for r in schema.get("required") or [] if r not in args]
    need(not missing, say(f"缺少必填参数 {missing[:1]}", f"required parameter missing: {missing[:1]}"))
    return ", ".join(f"{k}={show(v)}" for k, v in args.items())


def parse_arguments(call):
    """The model's arguments: JSON text that parses to an object."""
    text = obj(call, "model_call").get("arguments")
    need(
        isinstance(text, str),
        say(
            f"model_call.arguments 应是 JSON 文本，实际是 {type(text).__name__}",
            f"model_call.arguments should be JSON text, got {type(text).__name__}",
        ),
    )
    try:
        parsed = json.loads(text)
    except ValueError as exc:
        raise Fail(
            say(
                f"model_call.arguments 不是合法 JSON：{exc}", f"model_call.arguments is not valid JSON: {exc}"
            )
        ) from None
    need(
        isinstance(parsed, dict),
        say("model_call.arguments 解析后不是对象", "model_call.arguments does not parse to an object"),
    )
    return parsed


def mcp_arguments(request):
    """The MCP tools/call params.arguments: an object."""
    need(request is not None, say("没有 MCP 请求", "no MCP request"))
    req = obj(request, "mcp_request")
    need(
        req.get("method") == "tools/call",
        say(
            f"mcp_request.method 不是 tools/call：{show(req.get('method'))}",
            f"mcp_request.method is not tools/call: {show(req.get('method'))}",
        ),
    )
    args = obj(req.get("params"), "mcp_request.params").get("arguments")
    need(
        isinstance(args, dict),
        say("mcp_request.params.arguments 应是对象", "mcp_request.params.arguments should be an object"),
    )
    return args


def call_values(fr):
    for read in (lambda: parse_arguments(fr.get("model_call")), lambda: mcp_arguments(fr.get("mcp_request"))):
        try:
            return read()
        except Fail:
            continue
    return {}


def result_text(frame):
    """The text an MCP response carries and whether it reports a failure (isError absent = false)."""
    f = obj(frame, "mcp_result")
    if "error" in f and "result" not in f:
        error = obj(f["error"], "mcp_result.error")
        return f"protocol error {error.get('code')}: {error.get('message')}", True
    result = obj(f.get("result"), "mcp_result.result")
    content = result.get("content")
    need(
        isinstance(content, list),
        say("mcp_result.result.content 不是数组", "mcp_result.result.content is not an array"),
    )
    texts = [b.get("text") for b in content if isinstance(b, dict) and b.get("type") == "text"]
    need(
        all(isinstance(x, str) for x in texts),
        say("content 里的 text 不是字符串", "a content text is not a string"),
    )
    is_error = result.get("isError", False)
    need(isinstance(is_error, bool), say("isError 不是布尔值", "isError is not a boolean"))
    return "\n".join(texts), is_error


def feedback_output(item):
    out = obj(item, "feedback").get("output")
    if isinstance(out, list):
        out = "\n".join(str(obj(p, "feedback.output[]").get("text")) for p in out)
    need(isinstance(out, str), say("feedback.output 不是文本", "feedback.output is not text"))
    return out


def check_rule(fr):
    decl = obj(fr.get("declaration"), "declaration")
    need(
        decl.get("type") == "function",
        say("declaration.type 不是 function", "declaration.type is not function"),
    )
    call = fr.get("model_call")
    name = call.get("name") if isinstance(call, dict) else None
    need(
        name is None or decl.get("name") == name,
        say(
            f"调用的工具 {show(name)} 不是声明的 {show(decl.get('name'))}",
            f"the call names {show(name)}, the declaration {show(decl.get('name'))}",
        ),
    )
    summary = rule_summary(decl.get("parameters"), "declaration.parameters")
    args = call_values(fr)
    checked = values_follow_rule(args, decl["parameters"]) if args else ""
    values = [v for v in args.values() if isinstance(v, (str, int, float)) and not isinstance(v, bool)]
    hit = value_in_rule(decl.get("parameters"), values, "declaration.parameters")
    need(hit is None, say(f"规则里写着本次的值：{hit}", f"the rule carries this call's value: {hit}"))
    if fr.get("mcp_declaration") is not None:
        mcp_decl = obj(fr.get("mcp_declaration"), "mcp_declaration")
        rule_summary(mcp_decl.get("inputSchema"), "mcp_declaration.inputSchema")
        hit = value_in_rule(mcp_decl.get("inputSchema"), values, "mcp_declaration.inputSchema")
        need(
            hit is None,
            say(f"MCP 规则里写着本次的值：{hit}", f"the MCP rule carries this call's value: {hit}"),
        )
    return say(
        f"规则只有类型（{summary}）；调用的值 {checked} 符合它",
        f"the rule holds types only ({summary}); the call's values {checked} follow it",
    )


def check_text_object(fr):
    call = obj(fr.get("model_call"), "model_call")
    args = mcp_arguments(fr.get("mcp_request"))
    parse_arguments(call)
    return say(
        f"arguments 是 {len(call['arguments'])} 个字符的文本；MCP arguments 是有 {len(args)} 个键的对象",
        f"arguments is text of {len(call['arguments'])} characters; "
        f"the MCP arguments an object with {len(args)} keys",
    )


def check_values_equal(fr):
    parsed = parse_arguments(fr.get("model_call"))
    mcp = mcp_arguments(fr.get("mcp_request"))
    for key in list(parsed) + [k for k in mcp if k not in parsed]:
        need(key in parsed, say(f"{key} 只在 MCP 参数里", f"{key} is only in the MCP arguments"))
        need(key in mcp, say(f"{key} 没有送到服务", f"{key} did not reach the service"))
        need(
            same(parsed[key], mcp[key]),
            say(
                f"{key}：文本里是 {show(parsed[key])}，送到服务的是 {show(mcp[key])}",
                f"{key}: {show(parsed[key])} in the text, {show(mcp[key])} sent to the service",
            ),
        )
    return say("解析前后相同：", "the same before and after parsing: ") + ", ".join(
        f"{k}={show(v)}" for k, v in parsed.items()
    )


def check_route(fr):
    call = obj(fr.get("model_call"), "model_call")
    need(
        fr.get("mcp_request") is not None, say("调用没有被路由到服务", "the call was not routed to a service")
    )
    request = obj(fr.get("mcp_request"), "mcp_request")
    tool = obj(request.get("params"), "mcp_request.params").get("name")
    need(fr.get("link") is not None, say("应用没有留下关联记录", "the application kept no link record"))
    link = obj(fr.get("link"), "link")
    need(
        link.get("alias") == call.get("name"),
        say(
            f"link.alias {show(link.get('alias'))} 不是调用的别名",
            f"link.alias {show(link.get('alias'))} is not the call's alias",
        ),
    )
    need(
        link.get("tool") == tool,
        say(
            f"别名映射到 {show(link.get('tool'))}，请求的却是 {show(tool)}",
            f"the alias maps to {show(link.get('tool'))}, the request names {show(tool)}",
        ),
    )
    need(
        link.get("call_id") == call.get("call_id"),
        say("link.call_id 不是调用的 call_id", "link.call_id is not the call's call_id"),
    )
    need(
        same(link.get("mcp_id"), request.get("id")),
        say(
            f"link.mcp_id {show(link.get('mcp_id'))} 不是发出的 MCP id {show(request.get('id'))}",
            f"link.mcp_id {show(link.get('mcp_id'))} is not the MCP id sent, {show(request.get('id'))}",
        ),
    )
    decl = fr.get("mcp_declaration")
    declared = decl.get("name") if isinstance(decl, dict) else tool
    need(declared == tool, say(f"服务声明的是 {show(declared)}", f"the service declares {show(declared)}"))
    route = f"{call.get('name')} → {link.get('service')}/{tool}"
    ids = f"{call.get('call_id')} ↔ MCP id {show(request.get('id'))}"
    return say(f"别名 {route}；{ids}", f"alias {route}; {ids}")


def check_mcp_pair(fr):
    need(fr.get("mcp_request") is not None, say("没有 MCP 请求可配对", "no MCP request to pair"))
    request = obj(fr.get("mcp_request"), "mcp_request")
    mcp_id = request.get("id")
    need(
        isinstance(mcp_id, (int, str)) and not isinstance(mcp_id, bool),
        say(
            f"请求的 id 不是整数或字符串：{show(mcp_id)}",
            f"the request id is not an integer or string: {show(mcp_id)}",
        ),
    )
    need(fr.get("mcp_result") is not None, say("没有 MCP 响应", "no MCP response"))
    response = obj(fr.get("mcp_result"), "mcp_result")
    need(
        same(response.get("id"), mcp_id),
        say(
            f"响应的 id {show(response.get('id'))} 不是请求的 {show(mcp_id)}",
            f"the response id {show(response.get('id'))} is not the request's {show(mcp_id)}",
        ),
    )
    need(
        request.get("jsonrpc") == "2.0" and response.get("jsonrpc") == "2.0",
        say('jsonrpc 不是 "2.0"', 'jsonrpc is not "2.0"'),
    )
    need(
        ("result" in response) != ("error" in response),
        say("响应要么有 result 要么有 error", "a response has either result or error"),
    )
    return say(
        f"请求 id {show(mcp_id)} ↔ 响应 id {show(response['id'])}",
        f"request id {show(mcp_id)} ↔ response id {show(response['id'])}",
    )


def check_call_pair(fr):
    call = obj(fr.get("model_call"), "model_call")
    call_id = call.get("call_id")
    need(
        isinstance(call_id, str) and call_id, say("call_id 不是非空文本", "call_id is not a non-empty string")
    )
    need(fr.get("feedback") is not None, say(f"{call_id} 没有反馈", f"{call_id} has no feedback"))
    feedback = obj(fr.get("feedback"), "feedback")
    need(
        feedback.get("type") == "function_call_output",
        say("反馈的 type 不是 function_call_output", "the feedback's type is not function_call_output"),
    )
    got = feedback.get("call_id")
    request = fr.get("mcp_request")
    mcp_id = request.get("id") if isinstance(request, dict) else None
    need(
        got == call_id or mcp_id is None or str(got) != str(mcp_id),
        say(
            f"反馈用了 MCP 的 id {show(got)}，混用了两个编号",
            f"the feedback uses the MCP id {show(got)}: the two ids are mixed up",
        ),
    )
    need(
        got == call_id,
        say(
            f"反馈的 call_id {show(got)} 不是 {show(call_id)}",
            f"the feedback's call_id {show(got)} is not {show(call_id)}",
        ),
    )
    return say(
        f"function_call 与 function_call_output 都是 {call_id}",
        f"function_call and function_call_output both carry {call_id}",
    )


def check_feedback(fr):
    need(fr.get("mcp_result") is not None, say("没有执行结果", "no result of execution"))
    text, is_error = result_text(fr.get("mcp_result"))
    need(fr.get("feedback") is not None, say("没有反馈", "no feedback"))
    output = feedback_output(fr.get("feedback"))
    if is_error:
        need(
            output == FAILURE_PREFIX + text,
            say(
                f"失败没有以 {FAILURE_PREFIX!r} 加原文转达",
                f"the failure is not passed on as {FAILURE_PREFIX!r} plus its text",
            ),
        )
        return say("失败原样转达：", "the failure passed on as it was: ") + show(output, 50)
    need(not output.startswith(FAILURE_PREFIX), say("成功被标成了失败", "a success is marked as a failure"))
    need(output == text, say("反馈不是工具返回的原文", "the feedback is not the tool's own text"))
    return say(
        f"反馈就是工具返回的 {len(text)} 个字符", f"the feedback is the tool's own {len(text)} characters"
    )


CHECKS = (
    ("rule", "规则保持规则", "the rule stays a rule", check_rule),
    (
        "text_object",
        "模型参数是文本，MCP 参数是对象",
        "model arguments are text, MCP arguments an object",
        check_text_object,
    ),
    ("values_equal", "解析前后值相等", "the values are equal before and after parsing", check_values_equal),
    (
        "route",
        "别名映射回原工具（课程自加）",
        "the alias maps back to the tool (the course's own)",
        check_route,
    ),
    ("mcp_pair", "MCP 请求与响应按 id 配对", "MCP request and response pair by id", check_mcp_pair),
    (
        "call_pair",
        "模型调用与反馈按 call_id 配对",
        "model call and feedback pair by call_id",
        check_call_pair,
    ),
    ("feedback", "反馈内容来自同一份结果", "the feedback comes from the same result", check_feedback),
)
CANNOT_PROVE = (
    (
        "JSON 解析：文本解析后得到相同 path/head",
        "不能证明文件被读取",
        "JSON parsing: the text parses to the same path/head",
        "cannot prove the file was read",
    ),
    (
        "参数传递：对象与 MCP arguments 相等",
        "不能证明服务有权限",
        "passing the values: the object equals the MCP arguments",
        "cannot prove the service has the right to read",
    ),
    (
        "两组配对：MCP id 自配对，call_id 自配对",
        "不能证明真实系统实现正确",
        "two pairings: MCP id with MCP id, call_id with call_id",
        "cannot prove a real system is implemented correctly",
    ),
    (
        "反馈内容：output 与返回的文本一致",
        "不能保证模型正确理解或回答完整",
        "feedback: output equals the returned text",
        "cannot make sure the model understands or answers completely",
    ),
)


def run(fragments):
    """[(key, title, passed, reason)] for the seven checks; a wrong shape is a FAIL, never a traceback."""
    rows = []
    for key, zh, en, fn in CHECKS:
        try:
            passed, reason = True, fn(obj(fragments, "field_fragments"))
        except Fail as exc:
            passed, reason = False, str(exc)
        except Exception as exc:  # any other malformed piece
            passed, reason = (
                False,
                say(f"形状不对（{type(exc).__name__}）", f"wrong shape ({type(exc).__name__})"),
            )
        rows.append((key, say(zh, en), passed, reason))
    return rows


def load(path):
    """The JSON in a file, or None after printing one line that says why."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(
            say(
                f"读不了 {Path(path).name}：{type(exc).__name__}: {exc}",
                f"cannot read {Path(path).name}: {type(exc).__name__}: {exc}",
            )
        )
        return None


def console():
    """Never crash on a console that cannot show Chinese (GBK, cp1252): replace what it cannot."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")


def choose_language(argv):
    global LANG
    console()
    lang = os.environ.get("LESSONS_LANG", "zh")
    if "--lang" in argv:
        at = argv.index("--lang")
        lang = argv[at + 1] if at + 1 < len(argv) else lang
        argv = argv[:at] + argv[at + 2 :]
    LANG = "en" if lang.strip().lower() == "en" else "zh"
    return argv


def main(argv):
    argv = choose_language(argv)
    path = argv[0] if argv else str(Path(__file__).resolve().parent / "field_fragments.json")
    data = load(path)
    if data is None:
        return 1
    print(
        say(
            f"verify_fields：{Path(path).name} 的七条关系",
            f"verify_fields: seven relations in {Path(path).name}",
        )
    )
    rows = run(data)
    for key, title, passed, reason in rows:
        print(f"{'PASS' if passed else 'FAIL'} [{key}] {title}: {reason}")
    print(say("这些检查不能证明：", "What these checks cannot prove:"))
    for what_zh, cannot_zh, what_en, cannot_en in CANNOT_PROVE:
        print(f"  - {say(what_zh, what_en)} — {say(cannot_zh, cannot_en)}")
    ok = all(row[2] for row in rows)
    print(
        say(
            f"结论：{sum(r[2] for r in rows)}/{len(rows)} 通过，退出码 {0 if ok else 1}",
            f"Verdict: {sum(r[2] for r in rows)}/{len(rows)} passed, exit code {0 if ok else 1}",
        )
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
