package dev.memoir.common.web;

import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** /ui is the inspector: its files are served from static/ui, and the bare path leads to its index page. */
@Configuration
class InspectorPageConfig implements WebMvcConfigurer {

    @Override
    public void addViewControllers(ViewControllerRegistry registry) {
        // The page's modules are loaded relative to /ui/, so the bare path is redirected rather than forwarded. With
        // a status of its own the redirect keeps its relative Location: a forged Host header cannot reach it.
        registry.addRedirectViewController(InspectorPage.ROOT, InspectorPage.ROOT + "/")
                .setStatusCode(HttpStatus.MOVED_PERMANENTLY);
        // Not permanent: the root may one day answer something else, and browsers would remember a 301.
        registry.addRedirectViewController("/", InspectorPage.ROOT + "/").setStatusCode(HttpStatus.FOUND);
        registry.addViewController(InspectorPage.ROOT + "/")
                .setViewName("forward:" + InspectorPage.ROOT + "/index.html");
    }
}
