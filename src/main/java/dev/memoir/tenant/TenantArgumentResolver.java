package dev.memoir.tenant;

import java.util.List;

import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Lets controllers declare a {@link TenantId} parameter, filled from the authenticated key, and operator handlers an
 * {@link OperatorAccess} parameter, which only the bootstrap key provides.
 */
@Configuration(proxyBeanMethods = false)
class TenantArgumentResolver implements HandlerMethodArgumentResolver, WebMvcConfigurer {

    static {
        // The tenant comes from the API key, never from the request: keep it out of the OpenAPI description.
        SpringDocUtils.getConfig().addRequestWrapperToIgnore(TenantId.class, OperatorAccess.class);
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(this);
    }

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType().equals(TenantId.class)
                || parameter.getParameterType().equals(OperatorAccess.class);
    }

    @Override
    public Object resolveArgument(
            MethodParameter parameter,
            ModelAndViewContainer container,
            NativeWebRequest request,
            WebDataBinderFactory binderFactory) {
        if (parameter.getParameterType().equals(OperatorAccess.class)) {
            Object operator = request.getAttribute(OperatorAccess.ATTRIBUTE, RequestAttributes.SCOPE_REQUEST);
            if (!(operator instanceof OperatorAccess)) {
                throw new OperatorAccess.NotTheOperatorException();
            }
            return operator;
        }
        Object tenant =
                request.getAttribute(ApiKeyAuthenticationFilter.TENANT_ATTRIBUTE, RequestAttributes.SCOPE_REQUEST);
        if (tenant == null) {
            throw new IllegalStateException("No authenticated tenant on this request");
        }
        return tenant;
    }
}
