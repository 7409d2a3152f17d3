import { Agent, routeAgentRequest } from "agents"

/**
 * A Worker that uses the Agents SDK's scheduler as an adopter would: a request schedules a callback, which
 * runs once due. What its start-up costs is set beside slotwise's example Worker (scripts/bench/startup.ts).
 */
export class Reminders extends Agent<Cloudflare.Env> {
  override async onRequest(request: Request): Promise<Response> {
    const { seconds = 60 } = (await request.json()) as { seconds?: number }
    const schedule = await this.schedule(seconds, "remind", { at: Date.now() })
    return Response.json({ id: schedule.id })
  }

  async remind(payload: { at: number }): Promise<void> {
    console.log(JSON.stringify({ message: "reminded", scheduledAt: payload.at }))
  }
}

export default {
  fetch: async (request: Request, env: Cloudflare.Env) =>
    (await routeAgentRequest(request, env)) ?? new Response("not found", { status: 404 }),
} satisfies ExportedHandler<Cloudflare.Env>
