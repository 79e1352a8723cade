package net.hopwise.admin.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import net.hopwise.admin.api.Problems;
import net.hopwise.admin.config.HopwiseProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Who may do what. Every request that changes something (PUT, POST, PATCH, DELETE) needs the
 * operator's credentials, as a bearer token or basic authentication; reads need them only with
 * {@code hopwise.admin.security.reads-require-auth}. The dashboard's files, the health probes and
 * the OpenAPI UI's files are always open, so the dashboard can ask for credentials itself.
 *
 * <p>No sessions and no cookies: each request carries its credentials, so there is nothing for
 * cross-site request forgery to ride on and CSRF protection is off. Refusals are problem bodies.
 */
@Configuration(proxyBeanMethods = false)
public class SecurityConfiguration {
    private static final System.Logger LOG = System.getLogger(SecurityConfiguration.class.getName());
    private static final String OPERATOR = "ROLE_OPERATOR";

    @Bean
    OperatorCredentials operatorCredentials(HopwiseProperties properties) {
        OperatorCredentials c = OperatorCredentials.from(properties);
        if (c.none()) {
            LOG.log(System.Logger.Level.WARNING, "no operator credentials configured: endpoints that change the"
                    + " overlay are disabled (set hopwise.admin.security.token or .username and .password)");
        } else if (properties.demoMode() && properties.getAdmin().getSecurity().getUsername() == null
                && properties.getAdmin().getSecurity().getToken() == null) {
            LOG.log(System.Logger.Level.WARNING, "demo overlay: operator credentials are user '"
                    + OperatorCredentials.DEMO_USER + "', password '" + OperatorCredentials.DEMO_PASSWORD + "'");
        }
        return c;
    }

    @Bean
    SecurityFilterChain filterChain(HttpSecurity http, HopwiseProperties properties, OperatorCredentials credentials,
            ObjectMapper json) throws Exception {
        boolean readsOpen = !properties.getAdmin().getSecurity().isReadsRequireAuth();
        http.csrf(c -> c.disable())
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .httpBasic(b -> b.disable())
                .formLogin(f -> f.disable())
                .logout(l -> l.disable())
                .requestCache(r -> r.disable())
                .addFilterBefore(new CredentialsFilter(credentials, json), BasicAuthenticationFilter.class)
                .exceptionHandling(e -> e
                        .authenticationEntryPoint((req, res, ex) -> refuse(req, res, credentials, json, false))
                        .accessDeniedHandler((req, res, ex) -> refuse(req, res, credentials, json, true)))
                .authorizeHttpRequests(a -> {
                    // The second dispatch of a server-sent event stream or an error page was authorised already.
                    a.dispatcherTypeMatchers(DispatcherType.ASYNC, DispatcherType.ERROR).permitAll();
                    a.requestMatchers(HttpMethod.GET, "/", "/index.html", "/dashboard/**", "/webjars/**",
                            "/favicon.ico", "/error").permitAll();
                    a.requestMatchers(HttpMethod.GET, "/actuator/health", "/actuator/health/**").permitAll();
                    a.requestMatchers(HttpMethod.GET, "/swagger-ui.html", "/swagger-ui/**").permitAll();
                    if (readsOpen) {
                        a.requestMatchers(HttpMethod.GET, "/**").permitAll();
                        a.requestMatchers(HttpMethod.HEAD, "/**").permitAll();
                    }
                    if (credentials.none()) {
                        a.anyRequest().denyAll();
                    } else {
                        a.anyRequest().hasAuthority(OPERATOR);
                    }
                });
        return http.build();
    }

    /**
     * 401 asks for credentials; 403 says they are not enough, or that mutations are off entirely.
     * Requests from the dashboard (X-Requested-With) get no basic challenge, so the browser shows the
     * dashboard's own sign-in instead of its native dialog.
     */
    private static void refuse(HttpServletRequest req, HttpServletResponse res, OperatorCredentials credentials,
            ObjectMapper json, boolean authenticated) throws IOException {
        ProblemDetail p;
        if (credentials.none()) {
            p = Problems.CHANGES_DISABLED.detail("changes are disabled: this instance has no operator"
                    + " credentials (set hopwise.admin.security.token or .username and .password)");
        } else if (authenticated) {
            p = Problems.FORBIDDEN.detail("these credentials may not do this");
        } else {
            boolean sent = req.getHeader(HttpHeaders.AUTHORIZATION) != null;
            p = Problems.AUTHENTICATION_REQUIRED.detail(sent ? "the credentials given are not valid"
                    : "this request needs the operator's credentials: a bearer token or basic authentication");
            List<String> challenges = new java.util.ArrayList<>();
            if (credentials.tokenConfigured()) {
                challenges.add("Bearer realm=\"hopwise\"");
            }
            if (credentials.basicConfigured() && req.getHeader("X-Requested-With") == null) {
                challenges.add("Basic realm=\"hopwise\", charset=\"UTF-8\"");
            }
            if (challenges.isEmpty()) {
                challenges.add("Bearer realm=\"hopwise\"");
            }
            res.setHeader(HttpHeaders.WWW_AUTHENTICATE, String.join(", ", challenges));
        }
        instance(p, req);
        Problems.write(res, json, p);
    }

    /**
     * Spring Security's firewall refuses paths that could mean two things to two parsers (a "//", an
     * encoded dot or percent, a backslash): a 400 problem body like every other refusal, not a
     * container error page.
     */
    @Bean
    RequestRejectedHandler requestRejectedHandler(ObjectMapper json) {
        return (req, res, e) -> {
            ProblemDetail p = Problems.ofStatus(HttpStatus.BAD_REQUEST, e.getMessage());
            Problems.write(res, json, p);
        };
    }

    private static void instance(ProblemDetail p, HttpServletRequest req) {
        try {
            p.setInstance(java.net.URI.create(req.getRequestURI()));
        } catch (IllegalArgumentException e) {
            // A path java.net.URI cannot hold: the problem stands without it.
        }
    }

    /** Authenticates the operator from the Authorization header; a wrong header is refused at once. */
    private static final class CredentialsFilter extends OncePerRequestFilter {
        private final OperatorCredentials credentials;
        private final ObjectMapper json;

        CredentialsFilter(OperatorCredentials credentials, ObjectMapper json) {
            this.credentials = credentials;
            this.json = json;
        }

        @Override
        protected void doFilterInternal(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
                throws ServletException, IOException {
            String header = req.getHeader(HttpHeaders.AUTHORIZATION);
            if (header != null && !credentials.none()) {
                String user = credentials.authenticate(header);
                if (user == null) {
                    refuse(req, res, credentials, json, false);
                    return;
                }
                var auth = UsernamePasswordAuthenticationToken.authenticated(user, null,
                        List.of(new SimpleGrantedAuthority(OPERATOR)));
                SecurityContextHolder.getContext().setAuthentication(auth);
            }
            chain.doFilter(req, res);
        }
    }
}
