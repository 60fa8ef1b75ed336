-- Neovim's built-in LSP client drives neonform lsp (nvim_test.go): open a
-- file, wait for its diagnostics, hover, complete, and write what came
-- back as JSON. Written for Debian's Neovim (0.7: vim.lsp.start_client).
local file, out_path, bin = os.getenv("NF_FILE"), os.getenv("NF_OUT"), os.getenv("NF_BIN")
local out = {}

local function position(env)
  local line, col = os.getenv(env):match("(%d+):(%d+)")
  return { line = tonumber(line), character = tonumber(col) }
end

local ok, err = pcall(function()
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({
    name = "neonform",
    cmd = { bin, "lsp" },
    root_dir = vim.fn.fnamemodify(file, ":h"),
  })
  assert(id, "the client did not start")
  vim.lsp.buf_attach_client(buf, id)
  out.got_diagnostics = vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
  out.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(out.diagnostics, { lnum = d.lnum, col = d.col, end_col = d.end_col, severity = d.severity, message = d.message })
  end

  local doc = { uri = vim.uri_from_bufnr(buf) }
  local hover = vim.lsp.buf_request_sync(buf, "textDocument/hover", { textDocument = doc, position = position("NF_HOVER") }, 10000)
  local h = hover and hover[id] and hover[id].result
  out.hover = h and h.contents and h.contents.value or ""

  local completion = vim.lsp.buf_request_sync(buf, "textDocument/completion", { textDocument = doc, position = position("NF_COMPLETE") }, 10000)
  out.completion = {}
  local c = completion and completion[id] and completion[id].result
  for _, item in ipairs(c and (c.items or c) or {}) do
    table.insert(out.completion, item.label)
  end

  vim.lsp.stop_client(id)
  out.stopped = vim.wait(10000, function() return vim.lsp.get_client_by_id(id) == nil end, 50)
end)
if not ok then
  out.error = tostring(err)
end
local f = assert(io.open(out_path, "w"))
f:write(vim.fn.json_encode(out))
f:close()
vim.cmd("qa!")
