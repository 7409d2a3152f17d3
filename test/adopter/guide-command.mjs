// `node guide-command.mjs docs/add-to-a-worker.md "<command>"`: exits 1 unless the guide shows this command, word for
// word, as a line of one of its sh blocks (a `# comment` after it aside). run.sh runs each command the guide shows
// through this, so a command the guide shows is the one the adopter test runs.
import { readFileSync } from "node:fs"

/** The guide's sh command lines, comments after them cut. */
export function guideCommands(guide) {
  const commands = []
  for (const [, body] of guide.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    for (const line of body.split("\n")) {
      const command = line.replace(/\s+#.*$/, "").trim()
      if (command !== "" && !command.startsWith("#")) commands.push(command)
    }
  }
  return commands
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, command] = process.argv.slice(2)
  if (!guideCommands(readFileSync(file, "utf8")).includes(command)) {
    console.error(`${file} does not show "${command}": the adopter test runs what the guide shows`)
    process.exit(1)
  }
}
