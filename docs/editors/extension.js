// The gscript extension's client: it starts `gscript lsp` on stdio for
// .gs files and leaves everything else to the server (tools/lsp).
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("gscript").get("path", "gscript");
  // TransportKind.stdio makes the client pass --stdio, which gscript lsp accepts.
  const run = { command, args: ["lsp"], transport: TransportKind.stdio };
  client = new LanguageClient(
    "gscript",
    "gscript language server",
    { run, debug: run },
    { documentSelector: [{ scheme: "file", language: "gscript" }] },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
