// stdlib script tests (stdlib/script_test.go): save_image. The pixels are
// checked by TestSaveImagePixels (image_test.go).
array u: f32[4, 8] = 1.0
save_image(tmpdir + "/u.png", u)
save_image(tmpdir + "/u.png", u, cmap="magma", vmin=0, vmax=2)
let png = read_file(tmpdir + "/u.png")
print(len(png) > 0, png[1:4])      //> true PNG
array rgb: u8[2, 3, 3] = 200
save_image(tmpdir + "/rgb.png", rgb)
save_image(tmpdir + "/i.png", arange(6).reshape([2, 3]), cmap="gray")
save_image(tmpdir + "/b.png", array([[true, false]]))
---
save_image(tmpdir + "/a.png", zeros([2, 2]), cmap="jet")   ### "save_image: unknown cmap \"jet\" \(known: gray, magma, viridis\)"
---
save_image(tmpdir + "/a.png", zeros(4))                    ### "save_image: want a 2-D array, or a u8 array of shape \(h, w, 3\) or \(h, w, 4\), got shape \[4\]"
---
save_image(tmpdir + "/a.png", zeros([2, 2, 3]))            ### "save_image: an RGB image is a u8 array of shape \(h, w, 3\) or \(h, w, 4\), not f32"
---
save_image(tmpdir + "/a.png", zeros([0, 2]))               ### "save_image: an image needs at least one pixel"
---
save_image(tmpdir + "/a.png", zeros([2, 2]), vmin=1, vmax=0) ### "save_image: vmin 1 is above vmax 0"
---
save_image(tmpdir + "/a.png", zeros([2, 2, 3], dtype=u8), cmap="gray") ### "save_image: cmap=, vmin= and vmax= apply to 2-D arrays, not RGB pixels"
---
save_image(tmpdir + "/a.png", zeros([2, 2]), vmin="0")     ### "save_image: vmin= must be a number, not string"
---
// show draws what save_image draws; outside a notebook it writes the PNG
// only to path= (and nothing without one), checking its arguments alike.
array h: f32[3, 4] = 1.0
show(h)
show(h, cmap="magma", vmin=0, vmax=2)
show(h, path=tmpdir + "/show.png", cmap="gray")
print(read_file(tmpdir + "/show.png")[1:4])      //> PNG
array px: u8[2, 2, 3] = 7
show(px)
---
show(zeros(4))                                     ### "show: want a 2-D array, or a u8 array of shape \(h, w, 3\) or \(h, w, 4\), got shape \[4\]"
---
show(zeros([2, 2]), cmap="jet")                    ### "show: unknown cmap \"jet\" \(known: gray, magma, viridis\)"
---
show(zeros([2, 2]), path=tmpdir + "/a.jpg")        ### "show .*/a.jpg: the name must end in .png"
---
show(zeros([2, 2]), "a.png")                       ### "show takes 1 positional arguments, got 2"
