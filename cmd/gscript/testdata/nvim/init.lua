-- TestNeovim's init (lsp_test.go): the snippet of docs/editors/nvim.lua
-- ($GSCRIPT_SNIPPET, with the built gscript first on $PATH) attaches
-- Neovim's own LSP client to `gscript lsp` for the file given on the
-- command line; this waits for the server's diagnostics, then asks for
-- a hover, a definition, completions, signature help, formatting and the
-- symbols, edits the buffer and waits for the diagnostic to go, writes
-- what came to $GSCRIPT_NVIM_OUT and quits. Neovim 0.7 (Debian
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
    local uri = vim.uri_from_bufnr(buf)
    local function request(method, line, char, label, show)
      local params = { textDocument = { uri = uri }, position = { line = line, character = char } }
      if method == "textDocument/formatting" then
        params = { textDocument = { uri = uri }, options = { tabSize = 4, insertSpaces = true } }
      elseif method == "textDocument/documentSymbol" then
        params = { textDocument = { uri = uri } }
      end
      for _, r in pairs(vim.lsp.buf_request_sync(buf, method, params, 10000) or {}) do
        if r.result then
          table.insert(lines, label .. " " .. show(r.result):gsub("\n", " "))
        end
      end
    end
    request("textDocument/hover", 4, 1, "hover", function(r) return r.contents.value end)
    request("textDocument/definition", 3, 7, "definition", function(r)
      local loc = r[1] or r
      return loc.range.start.line .. ":" .. loc.range.start.character
    end)
    request("textDocument/completion", 3, 9, "completion", function(r)
      local labels = {}
      for _, it in ipairs(r.items or r) do table.insert(labels, it.label) end
      return table.concat(labels, ",")
    end)
    request("textDocument/signatureHelp", 3, 13, "signature", function(r) return r.signatures[1].label end)
    request("textDocument/formatting", 0, 0, "formatting", function(r) return r[1].newText end)
    request("textDocument/documentSymbol", 0, 0, "symbols", function(r)
      local names = {}
      for _, sym in ipairs(r) do table.insert(names, sym.name) end
      return table.concat(names, ",")
    end)
    -- An edit goes to the server as an incremental didChange: print(y)
    -- becomes print(3), and the diagnostic goes away.
    vim.api.nvim_buf_set_text(buf, 4, 6, 4, 7, { "3" })
    if vim.wait(10000, function() return #vim.diagnostic.get(buf) == 0 end, 50) then
      table.insert(lines, "edited: no diagnostics")
    end
    vim.lsp.stop_client(vim.lsp.get_active_clients())
    finish("done")
  end,
})
