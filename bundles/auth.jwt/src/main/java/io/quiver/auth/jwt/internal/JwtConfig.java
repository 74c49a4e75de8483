package io.quiver.auth.jwt.internal;

import io.quiver.lib.config.Max;
import io.quiver.lib.config.Min;
import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.AttributeType;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Settings of JWT authentication (PID {@code io.quiver.auth.jwt}), the single source of their defaults.
 * A change applies at once to the next token. Files named here are read when the configuration is
 * applied: after replacing a key file, save the configuration again.
 */
@ObjectClassDefinition(name = "Quiver JWT authentication",
        description = "Accepts signed JWT access tokens (Authorization: Bearer) issued by one authorization server"
                + " for this server. Without issuer, audience and at least one key, every token is refused.")
public @interface JwtConfig {

    @AttributeDefinition(description = "The authorization server's issuer identifier; the iss claim must equal it,"
            + " e.g. https://login.example.com/realms/main")
    String issuer();

    @AttributeDefinition(description = "This server's resource URLs, e.g. https://mcp.example.com/mcp; a token"
            + " whose aud claim names none of them was issued for another service and is refused")
    String[] audience();

    @AttributeDefinition(type = AttributeType.PASSWORD, description = "Shared secret for HS256/HS384/HS512, at"
            + " least 32 bytes (48 for HS384, 64 for HS512); the text's UTF-8 bytes, or base64:... for binary")
    String hmacSecret() default "";

    @AttributeDefinition(description = "PEM file with the issuer's public keys or certificates (RSA, EC P-256,"
            + " P-384, P-521 or Ed25519); a key without kid verifies tokens of any kid")
    String publicKeyFile() default "";

    @AttributeDefinition(description = "Local JWKS file (JSON) with the issuer's public keys")
    String jwksFile() default "";

    @AttributeDefinition(description = "The issuer's JWKS endpoint (https); cached, and refetched when a token names"
            + " a key id not seen yet, at most twice per jwksMinRefreshSeconds")
    String jwksUrl() default "";

    @AttributeDefinition(description = "JWS algorithms accepted, narrowing those the keys allow (HS* with"
            + " hmacSecret, RS*, PS*, ES*, EdDSA with public keys); empty: all those")
    String[] algorithms() default {};

    @AttributeDefinition(description = "Tolerance for exp and nbf, in seconds")
    @Min(0)
    @Max(600)
    int clockSkewSeconds() default 60;

    @AttributeDefinition(description = "Claims a token must carry besides exp, iss, aud and the subject claim")
    String[] requiredClaims() default {};

    @AttributeDefinition(description = "Claim naming the caller (a dotted path such as a.b reads a nested claim)")
    String subjectClaim() default "sub";

    @AttributeDefinition(description = "Put before every subject this authenticator names (e.g. idp:), so that no token"
            + " can name a subject another authenticator (an API key) names; grants then say idp:alice")
    String subjectPrefix() default "";

    @AttributeDefinition(description = "Claim naming the caller's tenant; a token without it belongs to tenant"
            + " default")
    String tenantClaim() default "tenant";

    @AttributeDefinition(description = "Claim with the caller's roles: a JSON array, or a text separated by spaces"
            + " or commas (e.g. realm_access.roles)")
    String rolesClaim() default "roles";

    @AttributeDefinition(description = "Claim with the granted OAuth scopes: a space separated text or an array;"
            + " when it is scope and absent, scp is read")
    String scopeClaim() default "scope";

    @AttributeDefinition(description = "How long keys fetched from jwksUrl are used before they are fetched again"
            + " (seconds); more than jwksMinRefreshSeconds")
    @Min(10)
    @Max(86_400)
    long jwksCacheSeconds() default 300;

    @AttributeDefinition(description = "Rate limit of jwksUrl fetches: at most two per this many seconds, however"
            + " many tokens name unknown key ids")
    @Min(1)
    @Max(3600)
    long jwksMinRefreshSeconds() default 30;
}
