// express is a dev dependency used only by tests, to run A2A counterparts with the SDK's own express
// adapters; its types (@types/express) are not installed, so it is typed loosely here.
declare module "express";
