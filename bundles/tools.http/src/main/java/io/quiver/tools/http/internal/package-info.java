/** Quiver built-in tools: fetch a URL from configured allowed hosts, HTML as Markdown, with size, time and address limits. */
package io.quiver.tools.http.internal;
