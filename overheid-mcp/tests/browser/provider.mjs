// A real OpenID provider for the approval page's browser test: npm oidc-provider 9.x with one
// public client (PKCE, no secret) and two test accounts of two companies. Its development login
// and consent pages accept any password for a known login name.
// Usage: node provider.mjs PORT REDIRECT_URI   (prints "provider ready" when listening)
import Provider from "oidc-provider";

const [port, redirect] = [Number(process.argv[2]), process.argv[3]];
const accounts = {
  anna: { sub: "anna", name: "Anna de Vries", kvk_nummer: "68750110" },
  piet: { sub: "piet", name: "Piet Ander", kvk_nummer: "11111111" },
};
const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [{
    client_id: "overheid-mcp-pagina",
    token_endpoint_auth_method: "none",
    redirect_uris: [redirect],
    grant_types: ["authorization_code"],
    response_types: ["code"],
  }],
  pkce: { required: () => true },
  claims: { openid: ["sub"], profile: ["name", "kvk_nummer"] },
  conformIdTokenClaims: false,
  findAccount: async (_ctx, id) =>
    accounts[id] && { accountId: id, claims: async () => accounts[id] },
});
provider.listen(port, "127.0.0.1", () => console.log("provider ready"));
