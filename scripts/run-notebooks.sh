#!/usr/bin/env bash
# Runs the analysis notebooks with the JDK's jshell on the analysis fixture results and fails on any error.
#
#   scripts/run-notebooks.sh                  every notebooks/*.jsh on its fixture run
#   scripts/run-notebooks.sh NOTEBOOK.jsh...  just these (a notebook named <experiment>.jsh reads
#                                             analysis/src/test/resources/fixtures/results/<experiment>)
#
# Needs the analysis module built (mvn -B -pl analysis install, or the full build: mvn -B verify).
# A notebook fails when jshell exits non-zero, when its output shows a compile error or an
# exception, or when it does not reach its end.
# Each notebook's output is kept in analysis/target/notebooks/<name>.out.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

fixtures=analysis/src/test/resources/fixtures/results
out=analysis/target/notebooks
mkdir -p "$out"

if ! command -v jshell >/dev/null 2>&1; then
  echo "run-notebooks: jshell not found (it comes with the JDK: openjdk-17-jdk-headless)" >&2
  exit 2
fi
if [[ ! -d analysis/target/classes/org/edgelab/analysis ]]; then
  echo "run-notebooks: analysis is not built; run: mvn -B -pl analysis install" >&2
  exit 2
fi

# The class path: from the installed common module when there is one, else from the reactor (a fresh
# clone after `mvn verify`: common's classes); offline first, then online.
cpfile="$out/classpath.txt"
cp_args=(dependency:build-classpath -DincludeScope=runtime -Dmdep.outputFile="$PWD/$cpfile")
: >"$out/mvn.log"
if ! mvn -B -q -o -pl analysis "${cp_args[@]}" >>"$out/mvn.log" 2>&1 \
   && ! mvn -B -q -o -pl analysis -am compile "${cp_args[@]}" >>"$out/mvn.log" 2>&1 \
   && ! mvn -B -q -pl analysis -am compile "${cp_args[@]}" >>"$out/mvn.log" 2>&1; then
  cat "$out/mvn.log" >&2
  echo "run-notebooks: cannot build the analysis class path" >&2
  exit 2
fi
classpath="$PWD/analysis/target/classes:$(cat "$cpfile")"

if (($#)); then notebooks=("$@"); else notebooks=(notebooks/*.jsh); fi

# jshell reports a failed snippet and carries on, and still exits 0: so each notebook runs from a copy
# without its /exit lines that ends by printing a marker, and the output is searched for the ways
# jshell reports a compile error or an exception.
marker="NOTEBOOK-REACHED-THE-END"
failed=0
for notebook in "${notebooks[@]}"; do
  name="$(basename "$notebook" .jsh)"
  results="$fixtures/$name"
  [[ -d "$results" ]] || results="$fixtures"
  copy="$out/$name.run.jsh"
  # drop the notebook's /exit lines, then end with the marker and an exit of our own
  grep -v '^/exit' "$notebook" >"$copy"
  printf '\nSystem.out.println("%s");\n/exit 0\n' "$marker" >>"$copy"
  log="$out/$name.out"
  status=0
  timeout 600 jshell --class-path "$classpath" --startup DEFAULT -R-Dedgelab.results="$PWD/$results" "$copy" \
    </dev/null >"$log" 2>&1 || status=$?
  problems="$(grep -n -E '^(\|  )?(Error:|Exception |Caused by: )|^Exception in thread' "$log" || true)"
  if ((status != 0)) || [[ -n "$problems" ]] || ! grep -q "^$marker\$" "$log"; then
    echo "FAIL $notebook (exit $status; output in $log)"
    [[ -n "$problems" ]] && printf '%s\n' "$problems" | sed -n '1,20p'
    grep -q "^$marker\$" "$log" || echo "  it did not reach its end"
    failed=$((failed + 1))
  else
    echo "ok   $notebook ($(grep -c . "$log") lines of output in $log)"
  fi
done

passed=$((${#notebooks[@]} - failed))
echo "notebooks: $passed passed, $failed failed"
((failed == 0))
