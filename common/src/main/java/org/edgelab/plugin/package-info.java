/**
 * Named plugins, the registry that finds them and the settings they take ({@link
 * org.edgelab.plugin.PluginSettings}, {@link org.edgelab.plugin.Setting}, {@link
 * org.edgelab.plugin.SettingException}). It lives in the lowest module so that every module (engines,
 * eviction policies, workloads, targets, load clients) finds and configures its plugins the same way.
 */
package org.edgelab.plugin;
