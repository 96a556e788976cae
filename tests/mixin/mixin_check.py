#!/usr/bin/env python3
"""The mixin against the exporter and Grafana's schema.

- packaging/mixin/dashboards/*.json validate against the JSON Schema of
  @grafana/schema's Dashboard type (--schema), and planted faults (a key
  Grafana does not know, a panel without its gridPos height) do not;
- every metric that an alert rule or a dashboard query names is one that
  user/ writes (the same table tests/doc_check.py holds the README to), and
  a planted unknown name is caught;
- every rule has a test in tests.yaml (promtool only tests what it is told).
"""
import argparse
import copy
import glob
import json
import os
import re
import sys

import jsonschema
import yaml

# Series that Prometheus itself adds to a scrape; PromQL's functions and
# keywords are not metric names.
PROMETHEUS_OWN = {"up"}
PROMQL_WORDS = {
    "sum", "by", "without", "count", "max", "min", "avg", "increase", "rate",
    "label_replace", "label_values", "vector", "time", "or", "and", "unless",
    "on", "ignoring", "group_left", "group_right", "bool", "offset",
}

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, file=sys.stderr)


def written_metrics(top):
    names = set()
    for path in glob.glob(os.path.join(top, "user", "*", "*.c")):
        with open(path, encoding="utf-8") as f:
            names.update(re.findall(r'"(pcieaudit_[a-z_]+)', f.read()))
    return names


def metric_names(expr):
    """The metric names of a PromQL expression: identifiers not inside a
    label matcher, a string, a range, or a by()/without() list."""
    e = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)
    e = re.sub(r"\{[^}]*\}", "{}", e)
    e = re.sub(r"\[[^\]]*\]", "[]", e)
    e = re.sub(r"\b(by|without|on|ignoring)\s*\([^)]*\)", "", e)
    e = re.sub(r"\$\w+", "", e)
    names = set()
    for m in re.finditer(r"\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b\s*(\(?)", e):
        word, call = m.group(1), m.group(2)
        if call or word in PROMQL_WORDS or re.fullmatch(r"\d.*", word):
            continue
        names.add(word)
    return names


def rule_exprs(path):
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    return [(r["alert"], r["expr"]) for g in doc["groups"] for r in g["rules"]]


def dashboard_exprs(dash):
    out = []
    for p in dash.get("panels", []):
        for q in p.get("targets", []):
            if "expr" in q:
                out.append((p.get("title", "?"), q["expr"]))
    for v in dash.get("templating", {}).get("list", []):
        q = v.get("query")
        if v.get("type") == "query" and isinstance(q, str):
            m = re.match(r"label_values\((\w+)", q)
            out.append((v["name"], m.group(1) if m else q))
    return out


def check_names(where, exprs, known, report=True):
    bad = 0
    for what, expr in exprs:
        for name in sorted(metric_names(expr) - known - PROMETHEUS_OWN):
            if report:
                fail(f"{where}: {what} names {name}, which the exporter does not write")
            bad += 1
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--schema", required=True)
    ap.add_argument("--top", required=True)
    a = ap.parse_args()
    mixin = os.path.join(a.top, "packaging", "mixin")
    known = written_metrics(a.top)
    if len(known) < 20:
        fail(f"only {len(known)} metric names found in user/: the table moved?")

    with open(a.schema, encoding="utf-8") as f:
        schema = json.load(f)
    validator = jsonschema.Draft7Validator(schema)
    dashboards = sorted(glob.glob(os.path.join(mixin, "dashboards", "*.json")))
    if not dashboards:
        fail("no dashboard in packaging/mixin/dashboards")
    nexpr = 0
    for path in dashboards:
        with open(path, encoding="utf-8") as f:
            dash = json.load(f)
        for err in validator.iter_errors(dash):
            fail(f"{os.path.basename(path)}: {err.json_path}: {err.message}")
        # The schema must be able to say no.
        planted = copy.deepcopy(dash)
        planted["panels"][0]["titel"] = "typo"
        del planted["panels"][1]["gridPos"]["h"]
        errs = list(validator.iter_errors(planted))
        if len(errs) < 2:
            fail(f"{os.path.basename(path)}: the schema accepted a planted unknown key "
                 f"or a gridPos without h ({len(errs)} errors)")
        exprs = dashboard_exprs(dash)
        nexpr += len(exprs)
        check_names(os.path.basename(path), exprs, known)

    rules = rule_exprs(os.path.join(mixin, "alerts.yaml"))
    check_names("alerts.yaml", rules, known)
    if not check_names("planted", [("a planted rule", "pcieaudit_no_such_metric > 0")],
                       known, report=False):
        fail("a planted unknown metric name was not caught")

    with open(os.path.join(mixin, "tests.yaml"), encoding="utf-8") as f:
        tests = yaml.safe_load(f)
    tested = {t["alertname"] for case in tests["tests"]
              for t in case.get("alert_rule_test", [])}
    for alert, _ in rules:
        if alert not in tested:
            fail(f"alerts.yaml: {alert} has no test in tests.yaml")

    if failures:
        return 1
    print(f"mixin: {len(dashboards)} dashboard(s) valid against @grafana/schema's Dashboard, "
          f"{len(rules)} rules and {nexpr} dashboard queries name only metrics the exporter writes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
