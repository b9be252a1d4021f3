-- TestNeovim's init (lsp_test.go): the snippet of docs/editors/nvim.lua
-- ($GSCRIPT_SNIPPET, with the built gscript first on $PATH) attaches
-- Neovim's own LSP client to `gscript lsp` for the file given on the
-- command line; this waits for the server's diagnostics, asks for a
-- hover, writes both to $GSCRIPT_NVIM_OUT and quits. Neovim 0.7 (Debian
-- 12's) and later.
local out = assert(os.getenv("GSCRIPT_NVIM_OUT"))
dofile(assert(os.getenv("GSCRIPT_SNIPPET")))
local lines = {}

local function finish(status)
  table.insert(lines, status)
  local f = assert(io.open(out, "w"))
  f:write(table.concat(lines, "\n") .. "\n")
  f:close()
  vim.cmd("qall!")
end

vim.api.nvim_create_autocmd("VimEnter", {
  callback = function()
    local buf = vim.api.nvim_get_current_buf()
    table.insert(lines, "filetype " .. vim.bo[buf].filetype)
    if not vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 50) then
      return finish("error: no diagnostics arrived")
    end
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      table.insert(lines, string.format("diagnostic %d:%d %s", d.lnum, d.col, d.message))
    end
    local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 1, character = 1 } }
    local res = vim.lsp.buf_request_sync(buf, "textDocument/hover", params, 10000) or {}
    for _, r in pairs(res) do
      if r.result then
        table.insert(lines, "hover " .. r.result.contents.value:gsub("\n", " "))
      end
    end
    vim.lsp.stop_client(vim.lsp.get_active_clients())
    finish("done")
  end,
})
