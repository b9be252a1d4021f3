-- Neovim's own LSP client attached to `gscript lsp`, headless, for
-- TestNeovim (lsp_test.go): open the file given on the command line,
-- wait for the server's diagnostics, ask for a hover, write both to
-- $GSCRIPT_NVIM_OUT and quit. Written for Neovim 0.7 (Debian 12's):
-- vim.lsp.start_client and buf_attach_client, as vim.lsp.start is 0.8's.
local out = assert(os.getenv("GSCRIPT_NVIM_OUT"))
local bin = assert(os.getenv("GSCRIPT_BIN"))
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
    local id = vim.lsp.start_client({ name = "gscript", cmd = { bin, "lsp" }, root_dir = vim.fn.getcwd() })
    if not id or not vim.lsp.buf_attach_client(buf, id) then
      return finish("error: the client did not start")
    end
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
    vim.lsp.stop_client(id)
    finish("done")
  end,
})
