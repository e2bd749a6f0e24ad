//! The cross-target matrix: several JSON reports side by side, every case
//! against every target, as one HTML page and one Markdown table.
//!
//! Rows are concrete case ids (the union over the reports), grouped by
//! category in report order; columns are the targets, in the order given.
//! Each cell is the verdict that report computed at its own decision level
//! (`meta.level`), colour-coded, and links to the case in that target's
//! report. A case a target did not run (its profile expands the catalogue
//! to other variants, or `--only` left it out) is shown as `-`, never as a
//! verdict.
//!
//! ```
//! use framecheck_report::matrix::{Column, Matrix};
//! # fn run() -> framecheck_launch::outcome::RunResult { unimplemented!() }
//! # fn doc() {
//! let columns = vec![Column { run: run(), link: Some("reference.html".into()) }];
//! let matrix = Matrix::new(&columns);
//! let page = matrix.to_html();
//! let table = matrix.to_markdown();
//! # }
//! ```

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::fs;
use std::path::{Component, Path, PathBuf};

use super::escape::{md_code, md_inline};
use super::json::ParseError;
use super::page::{self, anchor, shown, text};
use super::summary::Summary;
use framecheck_core::catalogue::Category;
use framecheck_launch::outcome::{RunResult, Verdict};

/// One target's report, and where the matrix links for it.
#[derive(Debug, Clone)]
pub struct Column {
    /// The run read back from the target's JSON report.
    pub run: RunResult,
    /// The target's report, relative to where the matrix is written: an
    /// HTML report (cells link to `#case-…` anchors in it) or any other
    /// file (cells link to the file). `None`: no links.
    pub link: Option<String>,
}

/// The matrix, computed once and rendered in either format.
#[derive(Debug)]
pub struct Matrix<'a> {
    columns: &'a [Column],
    /// Per category, the case ids in first-seen order with each column's verdict.
    rows: BTreeMap<Category, Vec<Row>>,
}

#[derive(Debug)]
struct Row {
    id: String,
    title: String,
    verdicts: Vec<Option<Verdict>>,
}

impl<'a> Matrix<'a> {
    /// Lines up every case of every column.
    pub fn new(columns: &'a [Column]) -> Matrix<'a> {
        let mut rows: BTreeMap<Category, Vec<Row>> = BTreeMap::new();
        let mut index: HashMap<String, (Category, usize)> = HashMap::new();
        for (col, column) in columns.iter().enumerate() {
            let level = column.run.meta.level;
            for result in &column.run.results {
                let case = &result.case;
                let (category, at) = *index.entry(case.id.clone()).or_insert_with(|| {
                    let list = rows.entry(case.category).or_default();
                    list.push(Row {
                        id: case.id.clone(),
                        title: case.title.clone(),
                        verdicts: vec![None; columns.len()],
                    });
                    (case.category, list.len() - 1)
                });
                if let Some(row) = rows.get_mut(&category).and_then(|l| l.get_mut(at)) {
                    row.verdicts[col] = Some(result.verdict(level, column.run.meta.gate));
                }
            }
        }
        Matrix { columns, rows }
    }

    /// The matrix as one self-contained HTML page (see [`super::page`]).
    pub fn to_html(&self) -> String {
        let mut body = String::new();
        body.push_str("<h1>framecheck: every case against every framing</h1>\n");
        let _ = writeln!(
            body,
            "<p class=\"note\">{}</p>",
            text(super::markdown::HONESTY_NOTE)
        );
        self.write_html_summary(&mut body);
        body.push_str("<p>Legend: ");
        for verdict in Verdict::ALL {
            let _ = write!(
                body,
                "<span class=\"badge v-{0}\">{0}</span> ",
                verdict.name()
            );
        }
        body.push_str("<span class=\"badge v-none\">- not run</span></p>\n");
        body.push_str("<table id=\"matrix\">\n");
        for (category, rows) in &self.rows {
            self.write_html_category(&mut body, *category, rows);
        }
        body.push_str("</table>\n");
        let style = format!("{}{MATRIX_STYLE}", page::BASE_STYLE);
        page::document("framecheck matrix", &style, "", &body)
    }

    fn write_html_summary(&self, out: &mut String) {
        out.push_str("<table id=\"targets\">\n<tr><th>target</th><th>language</th><th>status at its level</th><th>highest level held</th><th>security failures</th><th>cases</th></tr>\n");
        for column in self.columns {
            let summary = Summary::of(&column.run);
            let meta = &column.run.meta;
            let status = summary.status();
            let class = match status {
                "pass" => "v-pass",
                "fail" => "v-fail",
                _ => "v-error",
            };
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td><span class=\"badge {class}\">{status}</span> at {}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                target_link(column),
                shown(&meta.target.language),
                meta.level.name(),
                summary.highest_level_held.map_or("none", |l| l.name()),
                summary.security_failures(),
                summary.total
            );
        }
        out.push_str("</table>\n");
    }

    fn write_html_category(&self, out: &mut String, category: Category, rows: &[Row]) {
        let _ = write!(
            out,
            "<tr class=\"category\"><th>{} ({} cases)</th>",
            category.name(),
            rows.len()
        );
        for column in self.columns {
            let _ = write!(out, "<th>{}</th>", target_link(column));
        }
        out.push_str("</tr>\n");
        for row in rows {
            let _ = write!(
                out,
                "<tr><td><code title=\"{}\">{}</code></td>",
                shown(&row.title),
                shown(&row.id)
            );
            for (column, verdict) in self.columns.iter().zip(&row.verdicts) {
                match verdict {
                    Some(v) => {
                        let _ = write!(
                            out,
                            "<td class=\"v-{0}\"><a href=\"{1}\">{0}</a></td>",
                            v.name(),
                            text(&case_href(column, &row.id))
                        );
                    }
                    None => out.push_str("<td class=\"v-none\">-</td>"),
                }
            }
            out.push_str("</tr>\n");
        }
    }

    /// The matrix as Markdown: a status line per target, then one table,
    /// a row per case, grouped by category.
    pub fn to_markdown(&self) -> String {
        let mut out = String::from("# framecheck: every case against every framing\n\n");
        let _ = writeln!(out, "> {}\n", super::markdown::HONESTY_NOTE);
        for column in self.columns {
            let summary = Summary::of(&column.run);
            let _ = writeln!(
                out,
                "- {}: **{}** at `{}`, highest level held `{}`, {} security failures in {} cases",
                md_target(column),
                summary.status(),
                column.run.meta.level.name(),
                summary.highest_level_held.map_or("none", |l| l.name()),
                summary.security_failures(),
                summary.total
            );
        }
        out.push_str("\n| category | case |");
        for column in self.columns {
            let _ = write!(out, " {} |", md_inline(&column.run.meta.target.name));
        }
        out.push_str("\n|---|---|");
        out.push_str(&"---|".repeat(self.columns.len()));
        out.push('\n');
        for (category, rows) in &self.rows {
            for row in rows {
                let _ = write!(out, "| {} | {} |", category.name(), md_code(&row.id, true));
                for verdict in &row.verdicts {
                    let _ = write!(out, " {} |", verdict.map_or("-", markdown_cell));
                }
                out.push('\n');
            }
        }
        out
    }
}

/// A verdict as a Markdown cell: failures stand out in bold.
fn markdown_cell(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Pass => "pass",
        Verdict::Refused => "refused",
        Verdict::Fail => "**FAIL**",
        Verdict::FidelityFail => "**fidelity-fail**",
        Verdict::Error => "**ERROR**",
        Verdict::Skipped => "skipped",
    }
}

fn md_target(column: &Column) -> String {
    let name = md_inline(&column.run.meta.target.name);
    match &column.link {
        // A link destination in angle brackets may hold anything but
        // `<`, `>` and line breaks; percent-encode those.
        Some(link) => format!(
            "[{name}](<{}>)",
            link.replace('<', "%3C")
                .replace('>', "%3E")
                .replace('\n', "%0A")
                .replace('\r', "%0D")
        ),
        None => name,
    }
}

/// A relative link as a URI reference: every byte that is not unreserved
/// or `/` percent-encoded, so a file name cannot end the attribute, start a
/// scheme or smuggle an invisible character.
fn href(link: &str) -> String {
    super::escape::uri_reference(Path::new(link))
}

fn target_link(column: &Column) -> String {
    let name = shown(&column.run.meta.target.name);
    match &column.link {
        Some(link) => format!("<a href=\"{}\">{name}</a>", text(&href(link))),
        None => name,
    }
}

/// Why a report could not be set in the matrix.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The report.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file declares a run report but does not parse as one.
    #[error("{path}: {source}")]
    Parse {
        /// The report.
        path: PathBuf,
        /// Why.
        source: ParseError,
    },
}

/// Only the field telling a run report from other JSON (a search report).
#[derive(serde::Deserialize)]
struct Probe {
    schema: Option<String>,
}

/// Reads the run report at `path` for a column linking to the target's
/// report beside it, relative to `out_dir`: `<stem>.html` when it exists
/// there, else `<stem>.md`, else no link. `Ok(None)` when the file is JSON
/// without a `schema` field, such as a search report: not a run report, so
/// not a column.
pub fn load(path: &Path, out_dir: &Path) -> Result<Option<Column>, LoadError> {
    let json = fs::read_to_string(path).map_err(|source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let parse_error = |source: ParseError| LoadError::Parse {
        path: path.to_path_buf(),
        source,
    };
    let probe: Probe = serde_json::from_str(&json).map_err(|e| parse_error(ParseError::Json(e)))?;
    if probe.schema.is_none() {
        return Ok(None);
    }
    let run = super::json::parse(&json).map_err(parse_error)?;
    let link = ["html", "md"]
        .iter()
        .map(|ext| path.with_extension(ext))
        .find(|p| p.is_file())
        .map(|report| relative_link(out_dir, &report));
    Ok(Some(Column { run, link }))
}

/// `target` as a `/`-separated path relative to the directory `from`, both
/// resolved against the current directory first: how a page written in
/// `from` links to `target`.
pub fn relative_link(from: &Path, target: &Path) -> String {
    let absolute = |p: &Path| {
        let p = fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        std::path::absolute(&p).unwrap_or(p)
    };
    let (from, target) = (absolute(from), absolute(target));
    let from: Vec<Component> = from.components().collect();
    let to: Vec<Component> = target.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".to_string(); from.len() - common];
    parts.extend(
        to[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

/// Where a cell links: the case's anchor in an HTML report, else the report.
fn case_href(column: &Column, id: &str) -> String {
    match &column.link {
        Some(link) if link.ends_with(".html") => format!("{}#{}", href(link), anchor("case-", id)),
        Some(link) => href(link),
        None => format!("#{}", anchor("case-", id)),
    }
}

const MATRIX_STYLE: &str = "
#matrix td,#matrix th{padding:.1em .4em;font-size:12.5px}
#matrix td a{color:inherit;text-decoration:none;display:block}
tr.category th{position:sticky;top:0;background:#eef;border-top:2px solid #99a}
";
