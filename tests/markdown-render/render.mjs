// Renders the Markdown on stdin as GitHub-flavoured HTML (marked, gfm) on stdout.
import { marked } from "marked";

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
process.stdout.write(marked.parse(input, { gfm: true }));
