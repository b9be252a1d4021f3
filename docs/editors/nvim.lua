-- gscript in Neovim 0.7 and later: *.gs files get the filetype gscript,
-- and each gscript buffer is attached to one `gscript lsp` (Neovim's
-- built-in LSP client), with K for hover, gd for the definition, gr for
-- the references and <C-x><C-o> for completion. Put this file in ~/.config/nvim/plugin/ (or
-- dofile it from init.lua). On 0.8 and later the FileType callback can
-- be one call: vim.lsp.start({ name = "gscript", cmd = { "gscript", "lsp" } }).
vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
  pattern = "*.gs",
  callback = function(args)
    vim.bo[args.buf].filetype = "gscript"
  end,
})

local client_id -- one server for every gscript buffer

vim.api.nvim_create_autocmd("FileType", {
  pattern = "gscript",
  callback = function(args)
    vim.bo[args.buf].commentstring = "// %s"
    vim.bo[args.buf].omnifunc = "v:lua.vim.lsp.omnifunc" -- <C-x><C-o> completes
    local opts = { buffer = args.buf }
    vim.keymap.set("n", "K", vim.lsp.buf.hover, opts)
    vim.keymap.set("n", "gd", vim.lsp.buf.definition, opts)
    vim.keymap.set("n", "gr", vim.lsp.buf.references, opts)
    if not (client_id and vim.lsp.get_client_by_id(client_id)) then
      local dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(args.buf), ":p:h")
      client_id = vim.lsp.start_client({ name = "gscript", cmd = { "gscript", "lsp" }, root_dir = dir })
    end
    if client_id then
      vim.lsp.buf_attach_client(args.buf, client_id)
    end
  end,
})
