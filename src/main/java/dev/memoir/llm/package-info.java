/**
 * The models: the chat model client and its steps, prompt templates, in-process or remote embeddings.
 */
@ApplicationModule(allowedDependencies = {"common"})
package dev.memoir.llm;

import org.springframework.modulith.ApplicationModule;
