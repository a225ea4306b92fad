#!/bin/bash
# The lambda of the core's returns, 40/20/2/4, 1,000,000 games each: exploitability in points
# (seat A) of strong and strong-search. Run from an empty folder:
#   bash results/strong-outside-core/lambda-40-20-2-4.sh [BINARY] > lambda-40-20-2-4.txt
B=${1:-wuerfelglueck}
G="--track 40 --offset 20 --pieces 2 --goal-fields 4 --profile choice"
$B solve --a 1..6 --b 1..6 $G --layered --part outside-core --tolerance 1e-6 --values-out v --format json > solve.json 2>/dev/null
for lam in 0.7 0 1; do
  $B train $G --seed 1 --games 1000000 --hidden 256 --rate 0.1,0.001 --lambda $lam --targets exact --values v --positions every-roll --out p-$lam.json --overwrite --format json > t-$lam.json 2>/dev/null
  for s in strong strong-search; do
    $B solve --a 1..6 --b 1..6 $G --tolerance 1e-9 --strategy-a $s:p-$lam.json --format json 2>/dev/null | python3 -c "import json,sys;d=json.load(sys.stdin);print('lambda $lam $s exploitability', round(100*(0.5-d['p_a']),3))"
  done
done
