// Imported by consts.gs: its consts are read as constlib.SIZE.
const SIZE = 8
const TWICE = SIZE * 2
