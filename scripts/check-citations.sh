#!/usr/bin/env bash
# check-citations.sh: checks experiments/paper/citations.tsv, the list of every claim of the five
# papers' evaluations that `narwhal reproduce` compares (or says why it does not), against the
# papers' own text. The papers are not in the repository: give the folder that holds them as
# plain text, under the file names in the table below.
#
# Usage: scripts/check-citations.sh PAPERS_DIR [CITATIONS]
#   CITATIONS defaults to experiments/paper/citations.tsv beside this script.
# For each citation (tab-separated: id paper location lo hi printed quote row) it checks that
#   - the quote, whitespace collapsed and "word-<newline>word" hyphenations joined in both, is in
#     the paper's text, and is at most 300 characters;
#   - the printed value is in the quote (or each of its numbers is); for "derived: A / B = C",
#     each operand (each number left of the first " = ") is in the paper and one is in the quote,
#     and the arithmetic (units dropped) gives the result to its last digit, a power of ten apart;
#   - lo and hi are numbers (hi empty: no upper end; both empty, with printed "-": a qualitative
#     claim) and, unless printed is in words, each non-zero one has the digits of a number of
#     printed (7880 and "7.88 TFlop/s" both read 788; a percentage may be printed as its distance
#     from 100: "within 20%" for 80-100);
#   - each label of the location is in the paper: "section 5.2" or "section IV-B" as a heading,
#     "Fig. 8"/"Figs. 5-7" as "Fig. 8" or "Figure 8", "Table 5", "abstract", "conclusion";
#   - the row column is "yes", "no: needs hardware (...)", "no: another framework's measurement"
#     or "no: not yet simulated (...)"; ids are unique; rows are sorted by paper, then location.
# Prints one line per problem ("check-citations.sh: ID: what") and a summary line
# "N citations: K ok, M problems". Exit status: 0 none, 1 problems, 2 bad arguments.
set -euo pipefail

me=check-citations.sh
usage() {
  echo "usage: scripts/$me PAPERS_DIR [CITATIONS]" >&2
  exit 2
}
if [ $# -lt 1 ] || [ $# -gt 2 ]; then usage; fi

# Paper name (as in comparison.csv's paper column) -> its text file in PAPERS_DIR.
declare -A paper_file=(
  [Unicorn]=unicorn-runtime-tpds.txt
  [PRS]=spmd-roofline-coprocessing.txt
  [GeMTC]=gemtc-many-task-gpu.txt
  [Lifflander]=dynamic-agglomeration-charm.txt
  [StarPU]=starpu-runtime-rr7240.txt
)

papers_dir=$1
citations=${2:-"$(dirname "$0")/../experiments/paper/citations.tsv"}
if [ ! -d "$papers_dir" ]; then
  echo "$me: $papers_dir: no such directory" >&2
  exit 2
fi
if [ ! -f "$citations" ]; then
  echo "$me: $citations: no such citations file" >&2
  exit 2
fi
pairs=()
for paper in "${!paper_file[@]}"; do
  file=$papers_dir/${paper_file[$paper]}
  if [ ! -r "$file" ]; then
    echo "$me: $file: missing paper file ($paper)" >&2
    exit 2
  fi
  pairs+=("$paper=$file")
done

exec python3 - "$me" "$citations" "${pairs[@]}" <<'PY'
import math, os, re, sys

me, citations, pairs = sys.argv[1], sys.argv[2], sys.argv[3:]
HEADER = ["id", "paper", "location", "lo", "hi", "printed", "quote", "row"]
NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)$")
TOKEN = re.compile(r"(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?")
ROW = re.compile(r"^(yes|no: needs hardware \(.+\)|no: another framework's measurement"
                 r"|no: not yet simulated \(.+\))$")


def normalize(text):
    """Joins words hyphenated across a line break, then collapses every run of whitespace."""
    text = re.sub(r"([a-z])-[ \t]*\n\s*([a-z])", r"\1\2", text)
    return re.sub(r"\s+", " ", text).strip()


def tokens(text):
    return {t.replace(",", "") for t in TOKEN.findall(text)}


def digits(number):
    """The significant digits: 7880, 7.88 and 0.788 all give 788."""
    return number.replace(",", "").lstrip("+-").replace(".", "").lstrip("0").rstrip("0")


papers, lines = {}, {}
for pair in pairs:
    name, path = pair.split("=", 1)
    with open(path, encoding="utf-8") as fh:
        raw = fh.read()
    papers[name] = (os.path.basename(path), normalize(raw))
    lines[name] = raw.splitlines()


def heading(paper, label):
    """A heading line that starts with LABEL ("5.6.1", "IV.", "B.")."""
    pat = re.compile(r"^\s*#*\s*" + re.escape(label) + r"(\s|$)")
    return any(pat.match(line) for line in lines[paper])


def missing_labels(paper, location):
    """The location's labels that the paper lacks, or None when it names no label at all."""
    text = papers[paper][1]
    found, missing = 0, []
    for m in re.finditer(r"\bsection ([0-9]+(?:\.[0-9]+)*)\b", location):
        found += 1
        num = m.group(1)
        if not (heading(paper, num) or heading(paper, num + ".")):
            missing.append(m.group(0))
    for m in re.finditer(r"\bsection ([IVX]+)(?:-([A-Z]))?\b", location):
        found += 1
        if not heading(paper, m.group(1) + ".") or (m.group(2) and not heading(paper, m.group(2) + ".")):
            missing.append(m.group(0))
    for m in re.finditer(r"\bFigs?\. ([0-9]+)(?:-([0-9]+))?", location):
        found += 1
        for num in filter(None, m.groups()):
            if not re.search(r"\b(Fig\.|Figure) " + num + r"\b", text):
                missing.append("Fig. " + num)
    for m in re.finditer(r"\bTables? ([0-9]+)\b", location):
        found += 1
        if not re.search(r"\bTable " + m.group(1) + r"\b", text):
            missing.append(m.group(0))
    for word in ("abstract", "conclusion"):
        if re.search(r"\b" + word + r"\b", location):
            found += 1
            if not re.search(r"\b" + word, text, re.I):
                missing.append(word)
    return missing if found else None


problems, ok, count = 0, 0, 0
seen, last_key = set(), None


def problem(cid, what):
    global problems
    problems += 1
    print(f"{me}: {cid}: {what}")


with open(citations, encoding="utf-8") as fh:
    rows = fh.read().split("\n")
if rows and rows[-1] == "":
    rows.pop()
if not rows or rows[0].split("\t") != HEADER:
    problem("header", "first line is not the header " + " ".join(HEADER))
for number, line in enumerate(rows[1:], start=2):
    count += 1
    before = problems
    fields = line.split("\t")
    cid = fields[0] if fields and fields[0] else f"line {number}"
    if len(fields) != len(HEADER):
        problem(cid, f"{len(fields)} fields, not {len(HEADER)}")
        continue
    cid, paper, location, lo, hi, printed, quote, row = fields
    if not re.match(r"^[a-z0-9][a-z0-9.-]*$", cid):
        problem(cid, "id is not a slug (a-z, 0-9, '.', '-')")
    if cid in seen:
        problem(cid, "id used twice")
    seen.add(cid)
    if paper not in papers:
        problem(cid, f"unknown paper {paper!r}")
        continue
    file, text = papers[paper]
    if last_key is not None and (paper, location) < last_key:
        problem(cid, "not sorted by paper, then location")
    last_key = (paper, location)
    if not ROW.match(row):
        problem(cid, f"row is not yes or a listed no-reason: {row!r}")

    # The quote, and the printed value in it.
    nquote = normalize(quote)
    if not nquote:
        problem(cid, "empty quote")
    elif len(quote) > 300:
        problem(cid, f"quote of {len(quote)} characters (at most 300)")
    if nquote and nquote not in text:
        problem(cid, f"quote not found in {file}")
    derived = printed.startswith("derived:")
    if derived:
        expr = printed[len("derived:"):].split(" = ")[0]
        operands = tokens(expr)
        if " = " not in printed or not operands:
            problem(cid, "derived value without 'OPERANDS = RESULT'")
        for op in sorted(operands - tokens(text)):
            problem(cid, f"operand {op} not found in {file}")
        if operands and not operands & tokens(nquote):
            problem(cid, "no operand of the derived value in the quote")
        shown = printed.split(" = ")[-1]
        arithmetic = re.sub(r"[A-Za-z]+(?:/[A-Za-z]+)*", " ", expr)
        result = tokens(shown)
        try:  # digits, dots, spaces and + - * / ( ) only: nothing else reaches eval
            if not re.fullmatch(r"[\d.\s+*/()-]+", arithmetic) or len(result) != 1:
                raise ValueError
            got, want = float(eval(arithmetic, {"__builtins__": {}})), result.pop()
        except (ArithmeticError, SyntaxError, ValueError):
            problem(cid, "derived value whose arithmetic cannot be evaluated")
        else:
            # Units may differ (TFlop/s in, GFlop/s out): a power of ten apart, to the last digit.
            scale = 10 ** round(math.log10(float(want) / got)) if got > 0 and float(want) > 0 else 1
            places = len(want.split(".")[1]) if "." in want else 0
            if abs(float(want) - got * scale) > 0.5 * 10 ** -places + 1e-12:
                problem(cid, f"derived value: {expr.strip()} is {got * scale:.6g}, not {want}")
        if not location.startswith("derived"):
            problem(cid, "derived value whose location does not say 'derived'")
    else:
        if location.startswith("derived"):
            problem(cid, "location says derived, printed does not")
        shown = printed
        if printed != "-" and normalize(printed) not in nquote and not (
                tokens(printed) and tokens(printed) <= tokens(nquote)):
            problem(cid, f"printed value {printed!r} not in the quote")

    # lo and hi.
    if lo == "" and hi == "":
        if printed != "-":
            problem(cid, "qualitative (lo and hi empty) but printed is not '-'")
    elif not NUMBER.match(lo) or (hi != "" and not NUMBER.match(hi)):
        problem(cid, f"lo {lo!r} / hi {hi!r} not numbers (hi may be empty)")
    else:
        if printed == "-":
            problem(cid, "a value in lo/hi but printed is '-'")
        if hi != "" and float(hi) < float(lo):
            problem(cid, "hi below lo")
        shown_digits = {digits(t) for t in tokens(shown)}
        if shown_digits:
            for v in dict.fromkeys((lo, hi)):
                if not v or float(v) == 0 or digits(v) in shown_digits:
                    continue
                # A share of 100% printed as its distance from the whole: "within 20%" is 80-100.
                if "%" in printed and 0 < float(v) <= 100 and (
                        float(v) == 100 or digits(f"{100 - float(v):g}") in shown_digits):
                    continue
                problem(cid, f"value {v} does not match printed {printed!r}")

    # The location's labels.
    missing = missing_labels(paper, location)
    if missing is None:
        problem(cid, f"location {location!r} names no section, figure, table, abstract or conclusion")
    for label in missing or []:
        problem(cid, f"location's {label!r} not found in {file}")
    if problems == before:
        ok += 1

print(f"{count} citations: {ok} ok, {problems} problems")
sys.exit(1 if problems else 0)
PY
