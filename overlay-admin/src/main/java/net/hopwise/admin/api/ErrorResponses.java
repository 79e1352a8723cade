package net.hopwise.admin.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.catalina.Container;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Puts {@link ProblemReportValve} where Tomcat's HTML error valve would answer. */
@Configuration(proxyBeanMethods = false)
public class ErrorResponses {
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemReportValve(ObjectMapper json) {
        return new WebServerFactoryCustomizer<>() {
            @Override
            public void customize(TomcatServletWebServerFactory factory) {
                factory.addContextCustomizers(context -> {
                    Container host = context.getParent();
                    // Spring Boot adds Tomcat's valve to the host too; replaced, so only one of them answers.
                    for (Valve v : host.getPipeline().getValves()) {
                        if (v instanceof ErrorReportValve) {
                            host.getPipeline().removeValve(v);
                        }
                    }
                    if (host instanceof StandardHost standard) {
                        // The host adds a valve of this class when it starts unless one is present: ours is.
                        standard.setErrorReportValveClass(ProblemReportValve.class.getName());
                    }
                    host.getPipeline().addValve(new ProblemReportValve(json));
                });
            }
        };
    }
}
