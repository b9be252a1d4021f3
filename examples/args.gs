// args.gs: script arguments, the environment, formatted output and exit.
//
//   gscript run examples/args.gs [N [TITLE...]]
//   GSCRIPT_DIGITS=6 gscript run examples/args.gs 8 roots of small numbers
//
// Prints a table of n, n^2, sqrt(n) and 1/n for n from 1 to N (default 5)
// under TITLE, with GSCRIPT_DIGITS digits after the point (default 4).
// argv holds the script's name, then its arguments, as strings.

if len(argv) > 1 && argv[1] == "--help" {
    print("usage: gscript run examples/args.gs [N [TITLE...]]")
    exit(0)
}
let n = 5
if len(argv) > 1 {
    n = int(argv[1])
}
if n < 1 {
    print(format("args.gs: N must be at least 1, not %d", n), file="stderr")
    exit(2)
}
let title = "powers and roots"
if len(argv) > 2 {
    title = argv[2]
    for k in range(3, len(argv)) {
        title += " " + argv[k]
    }
}
let digits = int(env("GSCRIPT_DIGITS", "4"))
// Formats built by format: "%12s" and "%12.4f" for 4 digits.
let w = digits + 8
let head = format("%%4s %%8s %%%ds %%%ds", w, w)
let row = format("%%4d %%8d %%%d.%df %%%d.%df", w, digits, w, digits)

print(format("%s (n = 1..%d)", title, n))
print(format(head, "n", "n^2", "sqrt(n)", "1/n"))
for i in range(1, n + 1) {
    print(format(row, i, i * i, sqrt(float(i)), 1.0 / float(i)))
}
let h = 0.0
for i in range(1, n + 1) {
    h += 1.0 / float(i)
}
print("sum of 1/n:", end=" ")
print(round(h, digits))
