#!/bin/bash
# check_codes.sh PREFIX HEADER F90 - the Fortran module's PREFIX* error
# parameters are the C header's, name for name and value for value.
codes() { grep -o "$1[A-Z_]* *= *-[0-9]*" "$2" | tr -d ' ' | sort; }
if [ "$(codes "$1" "$2")" = "$(codes "$1" "$3")" ] && [ -n "$(codes "$1" "$2")" ]; then
    echo "PASS: $(codes "$1" "$2" | wc -l) $1 codes alike in $2 and $3"
else
    diff <(codes "$1" "$2") <(codes "$1" "$3")
    echo "FAIL: $3's $1* differ from $2's"
    exit 1
fi
