/**
 * `@switchyard/express`: node:http gateway handler, Express middleware and Fastify plugin for Switchyard.
 * @packageDocumentation
 */
export {};
