"""The HTML renderer: draws a :class:`analysis.report.model.Report` as the report
page, its words from :mod:`analysis.report.words`, every string escaped
(:mod:`analysis.report.html`)."""

from __future__ import annotations

from html import escape

import pandas as pd

from analysis.data.runs import Run
import analysis.report.words.report as words
from analysis.report.findings import FINDINGS_SHOWN
from analysis.report.html import image_html, page, present, sortable_html, sortable_script
from analysis.report.model import Report, Section, Table
from analysis.report.words.skill import skill_check_lines


def _anchor(title: str) -> str:
    return title.lower().replace(" ", "-")


def _csv_link(name: str) -> str:
    return f"<a href='tables/{name}.csv'>tables/{name}.csv</a>"


def _findings_html(table: pd.DataFrame, check: pd.DataFrame | None = None, unchecked: pd.DataFrame | None = None) -> str:
    """The Findings block: the first :data:`FINDINGS_SHOWN` findings as a compact table
    (:func:`analysis.report.words.report.finding_cells`: what, the value with its 95% CI, n,
    the skilled value where a check ran, the section), then the skill check's sentence
    (:func:`analysis.report.words.skill.skill_check_lines`), then the rest folded in the same
    table, and the method's words folded under "How to read this"."""
    skilled = "skilled_value" in table.columns and bool(table["skilled_value"].notna().any())
    head = "".join(f"<th>{escape(h)}</th>" for h in words.finding_headers(table["skilled_bot"].dropna().iloc[0]
                                                                          if skilled else None))  # fmt: skip

    def rows(part: pd.DataFrame, first: int) -> str:
        out = []
        for i, (_, r) in enumerate(part.iterrows(), start=first):
            cells = words.finding_cells(r, skilled)
            out.append(f"<tr title='{escape(r['sentence'])}'><td>{i}</td>"
                       + "".join(f"<td>{escape(c)}</td>" for c in cells)
                       + f"<td><a href='#{_anchor(r['section'])}'>{escape(r['section'])} →</a></td></tr>")  # fmt: skip
        return "".join(out)

    def block(part: pd.DataFrame, first: int) -> str:
        return f"<table class='findings'><thead><tr>{head}</tr></thead><tbody>{rows(part, first)}</tbody></table>"

    shown, rest = table.iloc[:FINDINGS_SHOWN], table.iloc[FINDINGS_SHOWN:]
    folded = (f"<details><summary>{words.more_findings(len(rest))}</summary>{block(rest, FINDINGS_SHOWN + 1)}"
              f"</details>") if len(rest) else ""  # fmt: skip
    skill = "".join(f"<p class='answer'>{escape(line)} <a href='#{_anchor('Skill and luck')}'>Skill and luck →</a></p>"
                    for line in skill_check_lines(check, unchecked, on_page=True))  # fmt: skip
    how = (f"<details><summary>{escape(words.HOW_TO_READ_TITLE)}</summary>"
           + "".join(f"<p class='note'>{escape(line)}</p>" for line in words.HOW_TO_READ)
           + f"<p class='note'>{words.FINDINGS_NOTE}{_csv_link('findings')}</p></details>")  # fmt: skip
    return (f"<section id='findings'><h2>Findings</h2>\n{block(shown, 1)}{skill}{folded}{how}</section>")


def _by_position_html(completers: pd.DataFrame) -> str:
    """Which position completes each task, one share and one interval column per
    position (run by run), sortable."""
    parts = []
    for run, rows in completers.groupby("run", sort=False):
        cells = present(rows, ("task", "completions", "count", "baseline"), compact=True).assign(
            position=rows["position"].to_numpy(), name=rows["name"].to_numpy())  # fmt: skip
        values = [c for c in cells.columns if c.startswith("share")]
        wide = cells.pivot_table(index="name", columns="position", values=values, aggfunc="first", sort=False)
        wide.columns = [f"position {p} {'95% CI' if 'CI' in v else '(%)'}" for v, p in wide.columns]
        wide = wide[sorted(wide.columns, key=lambda c: (int(c.split()[1]), "CI" in c))]
        wide.insert(0, "completions", rows.drop_duplicates("name").set_index("name")["completions"])
        title = f"<p class='note'>{escape(str(run))}</p>" if completers["run"].nunique() > 1 else ""
        parts.append(title + sortable_html(wide.reset_index()))
    return "\n".join(parts)


def _table_html(table: Table) -> list[str]:
    caption, link = escape(words.CAPTIONS[table.name]), _csv_link(table.name)
    if table.frame.empty:  # an odd deck or run: one plain sentence instead of a table
        return [f"<p class='note'>{caption} {escape(words.empty_text(table.name))} {words.HEADER_ONLY}{link}</p>"]
    if not table.shown:
        return [f"<p class='note'>{caption} {words.FULL_TABLE}{link}</p>"]
    shown = (_by_position_html(table.frame) if table.by_position
             else sortable_html(present(table.frame, table.hide, compact=True)))  # fmt: skip
    return [f"<h3>{caption}</h3>", shown, f"<p class='note'>{words.AS_CSV}{link}</p>"]


def _lead_html(table: Table | None) -> list[str]:
    """A section's lead table (:attr:`analysis.report.model.Section.lead`): its caption
    and rows, sortable; nothing when it has none or no rows."""
    if table is None or table.frame.empty:
        return []
    return [f"<p class='note'>{escape(words.CAPTIONS[table.name])}</p>", sortable_html(present(table.frame, compact=True))]


def section_html(section: Section, pngs: dict[str, bytes]) -> str:
    """One section: its answers and its lead table, then, folded one click away, their
    details, notes, figures (``pngs`` by figure name) and tables, so that the page
    reads as its answers first (the flagged allies are named in Card strength's, with
    their symbols and ability in its lead table)."""
    answers, more = [], []
    for answer in section.answers:
        text, details = words.answer_text(answer)
        answers.append(f"<p class='answer'>{escape(text)}</p>")
        more.append(f"<p>{escape(details)}</p>" if details else "")
    answers += _lead_html(section.lead)
    more += [f"<p class='note'>{escape(words.note_text(note))}</p>" for note in section.notes]
    more += [image_html(pngs[figure.name], words.ALT_TEXTS[figure.name]) for figure in section.figures]
    for table in section.tables:
        more += _table_html(table)
    return "\n".join([f"<h2 id='{_anchor(section.title)}'>{escape(section.title)}</h2>", *answers,
                      _folded(words.SECTION_MORE, more)])


def _folded(summary: str, parts: list[str]) -> str:
    """``parts`` (HTML) behind a ``<details>`` opened by ``summary``; nothing for none."""
    shown = [p for p in parts if p]
    return (f"<details class='more'><summary>{escape(summary)}</summary>\n" + "\n".join(shown) + "</details>"
            if shown else "")  # fmt: skip


def _provenance_html(run: Run, include_unfinished: bool) -> str:
    rows, note = words.provenance(run, include_unfinished)
    body = "".join(f"<tr><td>{escape(k)}</td><td>{escape(str(v))}</td></tr>" for k, v in rows)
    return (f"<h3>{escape(run.label)}</h3>\n<table class='provenance'>{body}</table>\n"
            f"<p class='note'>{escape(note)}</p>\n")  # fmt: skip


def report_html(report: Report, pngs: dict[str, bytes]) -> str:
    """The whole page of ``report`` (a self-contained HTML document), its figures
    drawn as the PNG bytes ``pngs`` by figure name."""
    title = words.title(report.runs)
    titles = [section.title for section in report.sections] + ["Provenance"]
    contents = "Sections: " + " · ".join(f"<a href='#{_anchor(t)}'>{escape(t)}</a>" for t in titles)
    body = "\n".join([
        f"<h1>{escape(title)}</h1>",
        f"<p class='note'>{escape(words.MADE.format(made=report.made))}</p>",
        f"<nav class='contents'>{contents}</nav>",
        "".join(f"<p class='warning'>{escape(w)}</p>\n" for w in words.warnings(report.runs)),
        _findings_html(report.findings, report.tables.get("skill_check"), report.unchecked),
        *(section_html(section, pngs) for section in report.sections),
        "<h2 id='provenance'>Provenance</h2>",
        _folded(words.PROVENANCE_MORE, [_provenance_html(run, report.include_unfinished) for run in report.runs]),
    ])  # fmt: skip
    return page(title, body, sortable_script() + FOLD_SCRIPT)


FOLD_SCRIPT = """<script>
document.addEventListener("toggle", () => window.dispatchEvent(new Event("resize")), true);
</script>"""
"""Tables laid out while folded get their column widths again once shown (DataTables
adjusts on a window resize)."""
