// stdlib script tests (stdlib/script_test.go): read_file, write_file,
// save_text, load_text and the suffix checks of every writer. tmpdir is
// a fresh directory for each chunk.
let p = tmpdir + "/s.txt"
write_file(p, "héllo\nworld")
let s = read_file(p)
print(s, len(s))                   //> héllo
//> world 12
write_file(p, "")
print(len(read_file(p)))           //> 0
---
read_file(tmpdir + "/nope.txt")    ### "read_file .*/nope.txt: no such file or directory"
---
write_file(tmpdir + "/a.txt", 3)   ### "write_file: the contents must be a string, not int \(str\(x\) or format make one\)"
---
// CSV: the delimiter comes from the suffix; values as print writes them
let a = array([[1.5, 2, 3], [4, 5, 6.25]])
let p = tmpdir + "/a.csv"
save_text(p, a, header="x,y,z")
print(read_file(p), end="")        //> # x,y,z
//> 1.5,2.0,3.0
//> 4.0,5.0,6.25
let b = load_text(p)
print(b, b.dtype, b.shape, equal(a, b))   //> [[1.5, 2.0, 3.0], [4.0, 5.0, 6.25]] f32 [2, 3] true
---
// 1-D: one value per line, back as 1-D; fmt= formats each value
let p = tmpdir + "/v.txt"
save_text(p, arange(4), fmt="%03d")
print(read_file(p), end="")        //> 000
//> 001
//> 002
//> 003
let v = load_text(p, dtype=i32)
print(v, v.dtype, v.shape)         //> [0, 1, 2, 3] i32 [4]
save_text(p, linspace(0, 1, 3, dtype=f64), fmt="%.2f", delimiter=";")
print(read_file(p), end="")        //> 0.00
//> 0.50
//> 1.00
---
// a plain header for spreadsheets: comments="" ; skiprows skips it
let p = tmpdir + "/t.csv"
save_text(p, array([[1, 2], [3, 4]], dtype=i64), header="a,b", comments="")
print(read_file(p), end="")        //> a,b
//> 1,2
//> 3,4
print(load_text(p, skiprows=1, dtype=i64))   //> [[1, 2], [3, 4]]
---
// whitespace-separated text, comments and blank lines, tabs for .tsv, bools
let p = tmpdir + "/w.dat"
write_file(p, "# a comment\n 1   2\t3\n\n4 5 6  # not a comment: an error\n")
load_text(p)                       ### "load_text .*/w.dat: line 4: 9 values, but line 2 has 3"
---
let q = tmpdir + "/b.tsv"
save_text(q, array([[true, false], [false, true]]))
print(read_file(q), end="")        //> 1	0
//> 0	1
print(load_text(q, dtype=bool))    //> [[true, false], [false, true]]
---
let p = tmpdir + "/w.dat"
write_file(p, "# a comment\n 1   2\t3\n\n4 5 6\n")
print(load_text(p, dtype=u8))      //> [[1, 2, 3], [4, 5, 6]]
---
// lines longer than the reader's buffer, CRLF ends, other spaces and
// spellings of bools; ints that need the slow path (floats, u64)
let p = tmpdir + "/long.csv"
let a = arange(6000, dtype=f32).reshape([2, 3000])
save_text(p, a)
let b = load_text(p)
print(b.shape, b[1, 2999], sum(b) == sum(a)) //> [2, 3000] 5999.0 true
write_file(p, "1,2\r\n3, 4 \r\n")
print(load_text(p, dtype=i64))     //> [[1, 2], [3, 4]]
let q = tmpdir + "/s.txt"
write_file(q, "TRUE\tFalse\n0 tRuE\n")
print(load_text(q, dtype=bool))    //> [[true, false], [false, true]]
write_file(q, "3.0 18446744073709551615\n-0 1e3\n")
print(load_text(q, dtype=u64))     //> [[3, 18446744073709551615], [0, 1000]]
write_file(q, "-2147483648 2147483647\n")
print(load_text(q, dtype=i32), load_text(q, dtype=f64)) //> [[-2147483648, 2147483647]] [[-2147483648.0, 2147483647.0]]
---
let p = tmpdir + "/long.csv"
let row = ""
for i in range(5000) {
    row = row + "1,"
}
write_file(p, row + "1\n" + row + "x\n")
load_text(p)                       ### "line 2, column 5001: cannot parse \"x\" as f32$"
---
let p = tmpdir + "/u.csv"
write_file(p, "1\n256\n")
load_text(p, dtype=u8)             ### "line 2, column 1: int 256 overflows u8"
---
let p = tmpdir + "/u.csv"
write_file(p, "1\n-1\n")
load_text(p, dtype=u64)            ### "line 2, column 1: int -1 overflows u64"
---
let p = tmpdir + "/u.csv"
write_file(p, "1\n2147483648\n")
load_text(p, dtype=i32)            ### "line 2, column 1: int 2147483648 overflows i32"
---
let p = tmpdir + "/u.csv"
write_file(p, "yes\n")
load_text(p, dtype=bool)           ### "line 1, column 1: cannot parse \"yes\" as a bool \(1, 0, true or false\)"
---
// errors name the line and the column
let p = tmpdir + "/h.csv"
write_file(p, "x,y\n1,2\n")
load_text(p)                       ### "load_text .*/h.csv: line 1, column 1: cannot parse \"x\" as f32 \(a header line\? skiprows=1 skips it\)"
---
let p = tmpdir + "/r.csv"
write_file(p, "1,2\n3,4\n5\n")
load_text(p)                       ### "load_text .*/r.csv: line 3: 1 value, but line 1 has 2"
---
let p = tmpdir + "/e.csv"
write_file(p, "1,,2\n")
load_text(p)                       ### "line 1, column 2: empty value"
---
let p = tmpdir + "/o.csv"
write_file(p, "1\n1e40\n")
load_text(p)                       ### "line 2, column 1: 1e\+40 is out of range for f32"
---
let p = tmpdir + "/i.csv"
write_file(p, "1\n2.5\n")
load_text(p, dtype=i32)            ### "line 2, column 1: cannot use float 2.5 as i32 \(not an integer\)"
---
let p = tmpdir + "/n.csv"
write_file(p, "# nothing\n\n")
load_text(p)                       ### "load_text .*/n.csv: no data"
---
save_text(tmpdir + "/c.csv", zeros([2, 2, 2]))   ### "save_text: a text file holds a 1-D or 2-D array, not 3-D"
---
save_text(tmpdir + "/c.csv", zeros(2), fmt="%d") ### "save_text .*c.csv: fmt \"%d\": %d \(verb 1\): wants an int, got f32 0.0"
---
// every writer checks its suffix, and names the builtin of the format
save(tmpdir + "/a.csv", zeros(2))              ### "save .*/a.csv: the name must end in .npy; save_text and load_text handle text and CSV files"
---
save_text(tmpdir + "/a.npy", zeros(2))         ### "save_text .*/a.npy: the name must end in .csv, .tsv, .txt or .dat; save and load handle .npy files"
---
save_image(tmpdir + "/a.jpg", zeros([2, 2]))   ### "save_image .*/a.jpg: the name must end in .png"
---
write_file(tmpdir + "/a.png", "x")             ### "write_file .*/a.png: write_file handles strings, not .png files; save_image writes PNG images"
---
// print(file=) writes text, so it refuses what write_file refuses
print("x", file=tmpdir + "/a.npy")             ### "print .*/a.npy: print handles text, not .npy files; save and load handle .npy files"
---
print("x", file=tmpdir + "/a.PNG")             ### "print .*/a.PNG: print handles text, not .png files; save_image writes PNG images"
---
load(tmpdir + "/a.csv")                        ### "load .*/a.csv: load handles .npy files, not .csv files; save_text and load_text handle text and CSV files"
---
load_text(tmpdir + "/a.npy")                   ### "load_text .*/a.npy: load_text handles text, not .npy files; save and load handle .npy files"
---
save(tmpdir + "/A.NPY", zeros(2))
print(load(tmpdir + "/A.NPY"))                 //> [0.0, 0.0]
