declare module "*.toml?raw" {
  const text: string;
  export default text;
}
