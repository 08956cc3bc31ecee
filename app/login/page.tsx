import { LoginForm } from "@/components/auth/login-form";
import { getApp } from "@/server/worker/app";

export const metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string; error?: string }> }) {
  const { next, error } = await searchParams;
  const { config } = await getApp();
  return <LoginForm next={next ?? "/"} error={error ?? null} sso={config.OIDC_ISSUER ? config.OIDC_NAME : null} />;
}
