import { startFakeLlm, type FakeLlm } from "../../scripts/fake-llm/server";
import { newUser, signIn, type As } from "./accounts";
import { fixtureAgents, startTestApp, type TestApp } from "./test-app";

/** A test app on the fixture agents against a fresh scripted model server, with an admin and two plain users. */
export interface TwoUserApp {
  fake: FakeLlm;
  t: TestApp;
  alice: As & { id: string };
  bob: As & { id: string };
}

export async function startTwoUserApp(): Promise<TwoUserApp> {
  const fake = await startFakeLlm();
  const t = await startTestApp({
    agentsSource: fixtureAgents,
    env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "k", ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "pw-admin-123" },
  });
  const admin = await signIn(t.url, "admin", "pw-admin-123");
  return { fake, t, alice: await newUser(t.url, admin, "alice"), bob: await newUser(t.url, admin, "bob") };
}
