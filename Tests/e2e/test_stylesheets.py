"""Every stylesheet in Web/ is whole.

A rule left open (`.game-result {` with no `}`) makes a browser read every
rule after it as part of that one: the word game's board, the Listen
buttons, the SOS alert's focus band and forced-colours mode were all lost
that way while every other test passed. So each `.css` file is read by an
independent parser (tinycss2), which must find no error — the project
writes no nested rules, so a block inside a rule's declarations is one left
open — and then by Chromium itself, which must keep exactly as many rules as
tinycss2 counted (a rule Chromium drops, such as one with a selector it does
not know, fails too) and nest none."""

from __future__ import annotations

from pathlib import Path

import pytest
import tinycss2

from conftest import REPO_ROOT
from test_web_ui import wait_for

WEB = REPO_ROOT / "Web"
STYLESHEETS = sorted(path for path in WEB.rglob("*.css") if "tests" not in path.relative_to(WEB).parts)
# At-rules that hold rules (as CSSOM's CSSGroupingRule / CSSKeyframesRule do).
HOLDS_RULES = {"media", "supports", "layer", "container", "keyframes", "document", "scope", "starting-style"}


def line_of(node) -> str:
    return f"line {node.source_line}, column {node.source_column}"


def problems_and_count(rules, where: str) -> tuple[list[str], int]:
    """The parse errors in `rules` (tinycss2 nodes) and the number of rules
    that CSSOM would hold for them, at-rules' inner rules included."""
    problems: list[str] = []
    count = 0
    for rule in rules:
        if rule.type == "error":
            problems.append(f"{where}: {line_of(rule)}: {rule.message}")
        elif rule.type == "qualified-rule":
            count += 1
            selector = tinycss2.serialize(rule.prelude).strip()
            for item in tinycss2.parse_declaration_list(rule.content, skip_comments=True, skip_whitespace=True):
                if item.type == "error":
                    problems.append(f"{where}: {line_of(item)}: in `{selector}`: {item.message}"
                                    " (a rule left open above this line?)")
        elif rule.type == "at-rule":
            count += 1
            if rule.content is not None and rule.lower_at_keyword in HOLDS_RULES:
                inner = tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True)
                more, inner_count = problems_and_count(inner, where)
                problems += more
                count += inner_count
    return problems, count


def read(path: Path):
    return tinycss2.parse_stylesheet(path.read_text(encoding="utf-8"), skip_comments=True, skip_whitespace=True)


def test_there_is_a_stylesheet_to_check():
    assert WEB / "style.css" in STYLESHEETS


@pytest.mark.parametrize("path", STYLESHEETS, ids=lambda p: p.relative_to(WEB).as_posix())
def test_every_stylesheet_parses_with_no_error(path: Path):
    problems, count = problems_and_count(read(path), path.relative_to(WEB).as_posix())
    assert problems == [], "\n".join(problems)
    assert count > 0


def test_the_checker_finds_a_rule_left_open(tmp_path: Path):
    """The check above would catch the defect it was written for."""
    broken = tmp_path / "broken.css"
    broken.write_text(".game-result {\n  margin: 0;\n/* Games */\n.wordle-board { display: grid; }\n"
                      "@media (max-width: 40rem) { .wordle-row { gap: 0; } }\n", encoding="utf-8")
    problems, _ = problems_and_count(read(broken), "broken.css")
    assert problems and "left open" in problems[0], problems


COUNT_IN_CHROMIUM = """
const [text] = arguments;
const sheet = new CSSStyleSheet();
sheet.replaceSync(text);
const nested = [];
function count(list) {
  let n = 0;
  for (const rule of list) {
    n += 1;
    if (rule instanceof CSSStyleRule) {
      if (rule.cssRules && rule.cssRules.length > 0) nested.push(rule.selectorText);
    } else if (rule.cssRules) {
      n += count(rule.cssRules);
    }
  }
  return n;
}
return { count: count(sheet.cssRules), nested };
"""


def test_chromium_keeps_every_rule_the_parser_counted(browser, hub_process):
    """Each file as Chromium reads it (a constructed stylesheet, so files a
    page does not link are checked too), and style.css as the hub's page
    actually loads it."""
    browser.get(hub_process.url + "/")
    wait_for(browser, "the page's stylesheet", lambda d: d.execute_script(
        "return [...document.styleSheets].some(s => s.href && s.href.endsWith('/style.css'))"))
    for path in STYLESHEETS:
        name = path.relative_to(WEB).as_posix()
        _, expected = problems_and_count(read(path), name)
        seen = browser.execute_script(COUNT_IN_CHROMIUM, path.read_text(encoding="utf-8"))
        assert seen["nested"] == [], f"{name}: rules Chromium read as nested in another: {seen['nested'][:5]}"
        assert seen["count"] == expected, f"{name}: Chromium kept {seen['count']} rules, tinycss2 counted {expected}"
    served = browser.execute_script("""
        const sheet = [...document.styleSheets].find(s => s.href && s.href.endsWith('/style.css'));
        function count(list) { let n = 0; for (const r of list) { n += 1; if (!(r instanceof CSSStyleRule) && r.cssRules) n += count(r.cssRules); } return n; }
        return count(sheet.cssRules);""")
    assert served == problems_and_count(read(WEB / "style.css"), "style.css")[1]
