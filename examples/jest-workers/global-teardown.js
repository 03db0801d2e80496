module.exports = async () => {
  await globalThis.petstoreMock.close();
};
