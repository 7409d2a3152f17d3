/** The hello-world Worker: what any Worker's start-up costs at least (scripts/bench/startup.ts). */
export default {
  fetch: () => new Response("hello"),
}
